import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Job } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerProcess, type WorkerProcess } from '../../packages/server/test/support/worker-process.js';
import { DEFAULT_SCRIPT, startAnthropicServer, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { harnessCli, startHarnessServer, until, type HarnessTestServer } from './harness-test-server.js';
import { ENTRYPOINT, jobEnv, startPodWorker, type PodWorker } from './pod-worker.js';

/**
 * Claude Code in a Kubernetes Job's pod: the server holds no key, the worker holds none
 * either (`--backend kubernetes`); the Anthropic key and the model's URL are in a Secret the
 * test makes through the scripted Kubernetes API, and reach the pod by reference only. The
 * stand-in's "kubelet" runs the pod's entrypoint as a local process, which runs the real CLI
 * through the server's own harness code against the scripted Anthropic model. Then the same
 * through `--backend command`: a dispatch script hands the run (the key among its secrets,
 * on stdin) to an entrypoint that detaches itself. (Codex and Gemini CLI in a pod:
 * harnesses-in-pod.test.ts.)
 */
const KEY = 'sk-ant-pod-test-31c9a0d2e4';
const TOKEN = 'claude-pod-worker-token-8d1f0b2c';
const claude = { type: 'claude', model_id: 'claude-sonnet-4-5' } as const;

let model: ScriptedModelServer;
let t: HarnessTestServer;
let pod: PodWorker;
let dispatcher: WorkerProcess | undefined;
let dir: string;
let jobs: V1Job[];
let runSecrets: (Record<string, string> | undefined)[];

beforeAll(async () => {
  // The second turn's command takes seconds: were the pod's agent not stopped at its usage, the third turn's request would come meanwhile.
  model = await startAnthropicServer({ ...DEFAULT_SCRIPT, commandOn: { 'SLOW-STEP': 'sleep 4; echo listed' } });
  t = await startHarnessServer(
    {},
    { CLAUDE_POD_WORKER_TOKEN: TOKEN },
    {},
    { workers: { pods: { token: { from_env: 'CLAUDE_POD_WORKER_TOKEN' }, worker_hosts: ['kube', 'remote'] } }, environments: { vault: {} } },
  );
  pod = await startPodWorker({
    server: t,
    token: TOKEN,
    workerHost: 'kube',
    harnesses: { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_BASE_URL'] } },
    modelKeys: { anthropic: KEY, 'base-url': model.url },
    secretEnv: { ANTHROPIC_API_KEY: 'anthropic', ANTHROPIC_BASE_URL: 'base-url' },
  });
  ({ dir, jobs, runSecrets } = pod);
}, 60_000);
afterAll(async () => {
  if (dispatcher && dispatcher.child.exitCode === null) {
    dispatcher.child.kill('SIGKILL');
    await dispatcher.exited;
  }
  await pod?.close();
  await t?.close();
  await model?.close();
});

describe('Claude Code in a Kubernetes Job', () => {
  it('runs the CLI in the pod with the key of a Secret: its answer, output and usage reach the run, then a follow-up (a new Job) carries the conversation', async () => {
    const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: claude, worker_host: 'kube' } });
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, `${JSON.stringify(run.status_message)}\n${pod.worker.stderr()}`).toBe('SUCCEEDED');
    expect(run.status_message?.message).toBe(DEFAULT_SCRIPT.answer);
    const output = await (await fetch(`${t.server.baseURL}/agent/runs/${run.run_id}/output`, { headers: { authorization: `Bearer ${t.server.apiKey}` } })).text();
    expect(output).toContain(DEFAULT_SCRIPT.answer);
    expect(output).toContain('edit hello.txt');
    expect(run.request_usage?.total_tokens).toBeGreaterThan(0);
    expect(run.request_usage?.inference_cost_usd).toBeGreaterThan(0);
    // The model was reached from the pod with the Secret's key; the Job's spec names the Secret, never the key.
    expect(model.agentTurns().length).toBeGreaterThan(0);
    expect(model.agentTurns().every((turn) => turn.apiKey === KEY)).toBe(true);
    expect(jobs).toHaveLength(1);
    expect(JSON.stringify(jobs[0])).not.toContain(KEY);
    const first = jobEnv(jobs[0]!);
    // The harness execution too comes from a Secret: the run's own.
    expect(first.fromSecrets).toEqual(expect.arrayContaining(['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'AGENT_RUNS_JOB_HARNESS']));
    expect(first.plain['AGENT_RUNS_JOB_HARNESS']).toBeUndefined();
    const harnessJob = JSON.parse(runSecrets[0]!['AGENT_RUNS_JOB_HARNESS']!) as { harness: string; assignment: { run: { harnessSessionId?: string } } };
    expect(harnessJob.harness).toBe('claude');
    expect(harnessJob.assignment.run.harnessSessionId).toBeUndefined();

    // The follow-up is a new Job: the session id the first one reported comes with the run, and
    // the model is given the earlier turns (the pod has no session state to resume from).
    const before = model.agentTurns().length;
    await t.client.runs.followup(run.run_id, { message: 'Now say that again.' });
    const after = await t.client.runs.wait(run.run_id, { timeout: 90_000 });
    expect(after.state, JSON.stringify(after.status_message)).toBe('SUCCEEDED');
    expect(jobs).toHaveLength(2);
    const second = JSON.parse(runSecrets[1]!['AGENT_RUNS_JOB_HARNESS']!) as { assignment: { run: { harnessSessionId?: string }; input: { number: number } } };
    expect(second.assignment.input.number).toBe(2);
    expect(second.assignment.run.harnessSessionId).toMatch(/^[0-9a-f-]{8,}$/);
    const resumed = model.agentTurns()[before]!;
    const messages = JSON.stringify(resumed.body['messages']);
    expect(messages).toContain('Write hello.txt, then run the command.');
    expect(messages).toContain(DEFAULT_SCRIPT.answer);
    expect(messages).toContain('Now say that again.');
    // Usage goes on from the first execution's.
    expect(after.request_usage!.total_tokens!).toBeGreaterThan(run.request_usage!.total_tokens!);
  }, 180_000);

  it("holds the run to its token cap while the pod's CLI runs: its usage reaches the worker as it comes, and the Job is stopped at the cap", async () => {
    const before = model.agentTurns().length;
    const jobsBefore = jobs.length;
    const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command. SLOW-STEP', config: { harness: claude, worker_host: 'kube', budget: { max_tokens: 200 } } });
    const blocked = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(blocked.state, JSON.stringify(blocked.status_message)).toBe('BLOCKED');
    expect(blocked.status_message?.message).toMatch(/^stopped at the budget: \d+ tokens used of max_tokens 200\. /);
    // Stopped during the second turn's slow command: no third turn was asked for.
    expect(model.agentTurns().length - before).toBe(2);
    expect(jobs.length - jobsBefore).toBe(1);
    await until(() => !pod.cluster.running(created.run_id), 10_000);
  }, 120_000);

  it('runs the CLI where a dispatch command sends the entrypoint, the key among the stdin JSON\'s secrets only', async () => {
    // The operator's script: the run on stdin goes to an entrypoint that detaches itself, as over ssh.
    const script = join(dir, 'dispatch.sh');
    writeFileSync(
      script,
      [
        '#!/bin/sh',
        `tr '\\0' ' ' < /proc/$$/cmdline > ${dir}/dispatch-cmdline`,
        `tr '\\0' '\\n' < /proc/$$/environ > ${dir}/dispatch-environ`,
        `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(ENTRYPOINT)} --stdin --detach --log ${dir}/entrypoint.log`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const config = join(dir, 'dispatch-worker.json');
    writeFileSync(
      config,
      JSON.stringify({
        harnesses: { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_BASE_URL'] } },
        secrets: { ANTHROPIC_API_KEY: { from_env: 'POD_TEST_ANTHROPIC_KEY' } },
        environments: { vault: { secrets: ['ANTHROPIC_API_KEY'] } },
      }),
    );
    const { AGENT_RUNS_WORKER_TOKEN: _t, ANTHROPIC_API_KEY: _k, ...env } = process.env;
    dispatcher = await startWorkerProcess(
      ['--server', t.server.url, '--worker-host', 'remote', '--backend', 'command', '--dispatch-command', script, '--config', config, '--command', 'false', '--job-listen', '127.0.0.1:0', '--work-dir', join(dir, 'dispatch-work'), '--instance-id', 'remote-0'],
      TOKEN,
      { ...env, POD_TEST_ANTHROPIC_KEY: KEY, ANTHROPIC_BASE_URL: model.url },
    );
    const before = model.agentTurns().length;
    const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: claude, worker_host: 'remote', environment_id: 'vault' } });
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, `${JSON.stringify(run.status_message)}\n${dispatcher.stderr()}`).toBe('SUCCEEDED');
    expect(run.status_message?.message).toBe(DEFAULT_SCRIPT.answer);
    expect(run.request_usage?.inference_cost_usd).toBeGreaterThan(0);
    const turns = model.agentTurns().slice(before);
    expect(turns.length).toBeGreaterThan(0);
    expect(turns.every((turn) => turn.apiKey === KEY)).toBe(true);
    // The key went on stdin: not in the dispatch command's argv or environment.
    expect(readFileSync(join(dir, 'dispatch-cmdline'), 'utf8')).not.toContain(KEY);
    expect(readFileSync(join(dir, 'dispatch-environ'), 'utf8')).not.toContain(KEY);
  }, 180_000);
});
