import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { processAlive } from '../../../../test/support/process-alive.js';
import { eventually } from '../support/eventually.js';
import { setUpKubernetesWorker } from '../support/kubernetes-worker.js';
import { ended } from '../support/server-api.js';
import { tempTree } from '../support/server-config.js';

/**
 * A run's budget still holds when the worker that made its Job is killed and another follows
 * the Job again: the restarted worker reads the budget back from the Job's annotations,
 * sealed with the worker token, and stops the agent at its cap; a budget raised there by
 * anyone without that token is not taken, and the agent is stopped rather than followed
 * without caps. A real server and worker process, the real @kubernetes/client-node, and the
 * scripted Kubernetes API stand-in, whose "kubelet" runs each pod's entrypoint (and the
 * claude harness's CLI, a stand-in that spends) as a local process that outlives the worker.
 */

const TOKEN = 'worker-k8s-budget-token-3b9e60d7c2';

/**
 * A stand-in for Claude Code that spends until it is stopped: one assistant message of
 * 100,000 input tokens ($0.30 at Sonnet's price), then, once the test's go file is there,
 * another every 0.2 s. Its pid goes in `claude.pid` beside it.
 */
function spendingUntilStopped(dir: string): string {
  const message = (n: string) =>
    `echo "{\\"type\\":\\"assistant\\",\\"message\\":{\\"id\\":\\"msg-$$-${n}\\",\\"model\\":\\"claude-sonnet-4-5\\",\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":\\"step ${n}\\"}],\\"usage\\":{\\"input_tokens\\":100000,\\"output_tokens\\":0}}}"`;
  const file = join(dir, 'claude');
  writeFileSync(
    file,
    [
      '#!/bin/sh',
      'cat > /dev/null',
      `echo $$ > ${dir}/claude.pid`,
      `echo '{"type":"system","subtype":"init","session_id":"spending-session"}'`,
      message('1'),
      `while [ ! -e ${dir}/go ]; do sleep 0.05; done`,
      'i=2',
      `while :; do ${message('$i')}; i=$((i + 1)); sleep 0.2; done`,
      '',
    ].join('\n'),
  );
  chmodSync(file, 0o755);
  return file;
}

/** The harness `claude` is the spending stand-in, its files in the returned `dir`; the model key its pod is given is in the stand-in's Secrets. */
async function setUp(context: TestContext) {
  const dir = tempTree();
  const setup = await setUpKubernetesWorker(context, {
    token: TOKEN,
    kubernetes: { secret_env: { ANTHROPIC_API_KEY: { secret: 'model-keys', key: 'anthropic' } } },
    workerSections: { harnesses: { claude: { command: spendingUntilStopped(dir) } } },
  });
  const { cluster, startWorker, createRun } = setup;
  cluster.secrets.set('model-keys', { anthropic: 'sk-ant-pod-5e8a' });
  /** A harness run capped at $1, its agent spending its first $0.30; then the first worker is killed (-9). */
  const runPastKill = async () => {
    const first = await startWorker();
    const id = await createRun('spend', { harness: { type: 'claude', model_id: 'claude-sonnet-4-5' }, budget: { max_cost_usd: 1 } });
    const pidFile = join(dir, 'claude.pid');
    await eventually(() => existsSync(pidFile), (there) => there, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    return { id, agentPid: Number(readFileSync(pidFile, 'utf8')) };
  };
  return { ...setup, dir, runPastKill };
}

describe("a reattached Job's budget, against a scripted Kubernetes API", () => {
  it('a worker killed (-9) while its run spends under its cap, then restarted: the run ends BLOCKED at max_cost_usd, its agent stopped', async (context) => {
    const { expect } = context;
    const { server, cluster, dir, startWorker, runPastKill } = await setUp(context);
    const { id, agentPid } = await runPastKill();

    const second = await startWorker();
    await eventually(() => second.stderr(), (stderr) => /followed again after a restart/.test(stderr), 30_000);
    // Spending again only now, under the restarted worker.
    writeFileSync(join(dir, 'go'), '');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('BLOCKED');
    expect(run.status_message).toMatchObject({ error_code: 'budget_exceeded', message: expect.stringMatching(/^stopped at the budget: \$\d+\.\d\d spent of max_cost_usd 1\. /) });
    // The spending stand-in never ends on its own: gone, it was stopped.
    await eventually(() => processAlive(agentPid), (up) => !up, 30_000);
    expect(cluster.created).toHaveLength(1);
  }, 90_000);

  it("a budget raised in the Job's annotations while its worker was down is not taken: the restarted worker stops the agent, the run ends FAILED saying why", async (context) => {
    const { expect } = context;
    const { server, cluster, startWorker, runPastKill } = await setUp(context);
    const { id, agentPid } = await runPastKill();
    const annotations = cluster.jobOf(id)!.job.metadata!.annotations!;
    expect(JSON.parse(annotations['agent-runs/budget']!)).toEqual({ max_cost_usd: 1 });
    annotations['agent-runs/budget'] = JSON.stringify({ max_cost_usd: 100_000 });

    await startWorker();
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('FAILED');
    expect(run.status_message.message).toMatch(/found no budget it had recorded for the run .*not sealed by this worker.*its agent was stopped/);
    await eventually(() => processAlive(agentPid), (up) => !up, 30_000);
  }, 90_000);
});
