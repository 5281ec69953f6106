import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, type TestContext } from 'vitest';
import { eventually } from '../support/eventually.js';
import { freePort } from '../support/free-port.js';
import { ScriptedKubernetes } from '../support/scripted-kubernetes.js';
import { api, ended, TESTER_KEY } from '../support/server-api.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { killProcesses, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

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
const ENTRYPOINT = fileURLToPath(new URL('../../bin/agent-runs-job-entrypoint.js', import.meta.url));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

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

async function setUp({ expect, onTestFinished }: TestContext) {
  const processes: (ServerProcess | WorkerProcess)[] = [];
  let cluster: ScriptedKubernetes | undefined;
  onTestFinished(async () => {
    await killProcesses(processes);
    await cluster?.close();
  });
  const serverConfig = writeServerConfig({ workers: { pool: { token: { from_env: 'AGENT_RUNS_K8S_WORKER_TOKEN' }, worker_hosts: ['kube'] } } });
  const server = await startServerProcess(['--memory', '--api-key', `tester=${TESTER_KEY}`, '--config', serverConfig], { ...process.env, AGENT_RUNS_K8S_WORKER_TOKEN: TOKEN });
  processes.push(server);
  cluster = await ScriptedKubernetes.start();
  cluster.secrets.set('model-keys', { anthropic: 'sk-ant-pod-5e8a' });
  const dir = tempTree();
  const workerConfig = writeServerConfig(
    {
      kubernetes: { image: 'registry.example/agent:1', entrypoint: [process.execPath, ENTRYPOINT], secret_env: { ANTHROPIC_API_KEY: { secret: 'model-keys', key: 'anthropic' } } },
      harnesses: { claude: { command: spendingUntilStopped(dir) } },
    },
    tempTree(),
  );
  const kubeconfig = cluster.writeKubeconfig(dir);
  // One port for the worker and the one restarted after it, as a pod's port is: the pods keep reporting to it.
  const jobPort = await freePort();
  const root = server.baseURL.replace(/\/api\/v1$/, '');
  const startWorker = async () => {
    const worker = await startWorkerProcess(
      ['--server', root, '--worker-host', 'kube', '--backend', 'kubernetes', '--config', workerConfig, '--command', 'true', '--job-listen', `127.0.0.1:${jobPort}`, '--instance-id', 'kube-worker-0'],
      TOKEN,
      { ...process.env, KUBECONFIG: kubeconfig },
    );
    processes.push(worker);
    return worker;
  };
  /** A harness run capped at $1, its agent spending its first $0.30; then the first worker is killed (-9). */
  const runPastKill = async () => {
    const first = await startWorker();
    const created = await api(server, '/agent/run', {
      method: 'POST',
      body: { prompt: 'spend', config: { worker_host: 'kube', harness: { type: 'claude', model_id: 'claude-sonnet-4-5' }, budget: { max_cost_usd: 1 } } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.run_id as string;
    const pidFile = join(dir, 'claude.pid');
    await eventually(() => existsSync(pidFile), (there) => there, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    return { id, agentPid: Number(readFileSync(pidFile, 'utf8')) };
  };
  return { server, cluster, dir, startWorker, runPastKill };
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
    await eventually(() => alive(agentPid), (up) => !up, 30_000);
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
    await eventually(() => alive(agentPid), (up) => !up, 30_000);
  }, 90_000);
});
