import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPT, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { startGeminiServer } from './gemini-script-server.js';
import { changesPatch, GIT_REPO_ENVIRONMENT, harnessCli, startHarnessServer, type HarnessTestServer } from './harness-test-server.js';
import { startOpenAiServer } from './openai-script-server.js';
import { jobEnv, startPodWorker, type PodWorker } from './pod-worker.js';

/**
 * Codex and Gemini CLI in a Kubernetes Job's pod, as Claude Code is in claude-in-pod.test.ts:
 * the real CLIs, run by the pod's entrypoint through the server's harness code, against the
 * scripted model servers of their own harness tests; each key and model URL from the
 * operator's Secret, by reference. Each runs in a git repository made in its pod, so what it
 * wrote there comes back as the run's changes.patch. One run each, side by side.
 */
const OPENAI_KEY = 'sk-openai-pod-test-5b80c2e7';
const GEMINI_KEY = 'AIzaSy-pod-test-9e4d17a3';
const TOKEN = 'harness-pod-worker-token-0f6a93';

let openai: ScriptedModelServer;
let gemini: ScriptedModelServer;
let t: HarnessTestServer;
let pod: PodWorker;

beforeAll(async () => {
  [openai, gemini] = await Promise.all([startOpenAiServer(), startGeminiServer()]);
  t = await startHarnessServer({}, { HARNESS_POD_WORKER_TOKEN: TOKEN }, {}, {
    workers: { pods: { token: { from_env: 'HARNESS_POD_WORKER_TOKEN' }, worker_hosts: ['kube'] } },
    environments: { repo: {} },
  });
  pod = await startPodWorker({
    server: t,
    token: TOKEN,
    workerHost: 'kube',
    harnesses: {
      codex: { command: harnessCli('codex'), env: ['OPENAI_BASE_URL'] },
      gemini: { command: harnessCli('gemini'), env: ['GOOGLE_GEMINI_BASE_URL'] },
    },
    modelKeys: { openai: OPENAI_KEY, 'openai-url': `${openai.url}/v1`, gemini: GEMINI_KEY, 'gemini-url': gemini.url },
    secretEnv: { OPENAI_API_KEY: 'openai', OPENAI_BASE_URL: 'openai-url', GEMINI_API_KEY: 'gemini', GOOGLE_GEMINI_BASE_URL: 'gemini-url' },
    environments: { repo: GIT_REPO_ENVIRONMENT },
  });
}, 60_000);
afterAll(async () => {
  await pod?.close();
  await t?.close();
  await Promise.all([openai?.close(), gemini?.close()]);
});

const cases = [
  // Three agent turns of 100 input tokens (10 cached) and 20 output (Gemini: 5 of thoughts too), at each model's list prices.
  { harness: { type: 'codex', model_id: 'gpt-5.5' }, model: () => openai, key: OPENAI_KEY, keyVariable: 'OPENAI_API_KEY', keyRef: 'model-keys/openai', tokens: 3 * 120, cost: (270 * 1.25 + 30 * 0.125 + 60 * 10) / 1e6 },
  { harness: { type: 'gemini', model_id: 'gemini-2.5-flash' }, model: () => gemini, key: GEMINI_KEY, keyVariable: 'GEMINI_API_KEY', keyRef: 'model-keys/gemini', tokens: 3 * 125, cost: (270 * 0.3 + 75 * 2.5 + 30 * 0.03) / 1e6 },
] as const;

describe.concurrent('Codex and Gemini CLI in a Kubernetes Job', () => {
  for (const c of cases) {
    it(`runs ${c.harness.type} in the pod with the key of a Secret: its answer, output, usage and the file it wrote reach the run`, async () => {
      const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: c.harness, worker_host: 'kube', environment_id: 'repo' } });
      const run = await t.client.runs.wait(created.run_id, { timeout: 120_000 });
      expect(run.state, `${JSON.stringify(run.status_message)}\n${pod.worker.stderr()}`).toBe('SUCCEEDED');
      expect(run.status_message?.message).toBe(DEFAULT_SCRIPT.answer);
      const output = await (await fetch(`${t.server.baseURL}/agent/runs/${run.run_id}/output`, { headers: { authorization: `Bearer ${t.server.apiKey}` } })).text();
      expect(output).toContain(`$ ${DEFAULT_SCRIPT.command}`);
      expect(output).toContain(DEFAULT_SCRIPT.answer);
      expect(run.request_usage?.total_tokens).toBe(c.tokens);
      expect(run.request_usage?.inference_cost_usd).toBeCloseTo(c.cost, 9);
      // The file the CLI wrote and the one its command wrote, in the pod's repository, came back with the run.
      const patch = await changesPatch(t.client, run);
      expect(patch, `no changes.patch among the run's artifacts: ${JSON.stringify(run.artifacts)}`).toBeDefined();
      expect(patch!.text).toContain('+++ b/hello.txt');
      expect(patch!.text).toContain(`+${DEFAULT_SCRIPT.content.trimEnd()}`);
      expect(patch!.text, output).toContain('+shell-ran');
      // The model was reached from the pod with the Secret's key; the Job's spec names the Secret, never the key.
      const turns = c.model().agentTurns();
      expect(turns).toHaveLength(3);
      expect(turns.every((turn) => turn.apiKey === c.key)).toBe(true);
      const index = pod.jobs.findIndex((job) => job.metadata!.labels!['agent-runs/run-id'] === run.run_id);
      expect(JSON.stringify(pod.jobs[index])).not.toContain(c.key);
      expect(jobEnv(pod.jobs[index]!).refs[c.keyVariable]).toBe(c.keyRef);
      // Nor does the run's own Secret hold it: the worker never had it.
      expect(JSON.stringify(pod.runSecrets[index])).not.toContain(c.key);
      expect((JSON.parse(pod.runSecrets[index]!['AGENT_RUNS_JOB_HARNESS']!) as { harness: string }).harness).toBe(c.harness.type);
      expect(output).not.toContain(c.key);
    }, 180_000);
  }
});
