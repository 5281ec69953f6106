import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, type TestContext } from 'vitest';
import { eventually } from '../support/eventually.js';
import { freePort } from '../support/free-port.js';
import { ScriptedKubernetes } from '../support/scripted-kubernetes.js';
import { api, ended, outputOf, TESTER_KEY } from '../support/server-api.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { killProcesses, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * A run's environment's secrets stay masked in its output when the worker that made its Job
 * is killed and another follows the Job again: the pod's entrypoint masks them with the
 * values the pod was given, so neither a restart nor a secret rotated meanwhile in the
 * worker's configuration lets one through. A real server and worker process, the real
 * @kubernetes/client-node, and the scripted Kubernetes API stand-in, whose "kubelet" runs
 * each pod's entrypoint (and agent) as a local process that outlives the worker.
 */

const TOKEN = 'worker-k8s-mask-token-8c3d5e19a7';
/** The environment's secret as the run's pod got it. */
const SECRET = 'deploy-key-at-start-6f1e0b7d42';
/** Its value in the restarted worker's configuration: rotated meanwhile. */
const ROTATED = 'deploy-key-rotated-93a0c58e1b';
const ENTRYPOINT = fileURLToPath(new URL('../../bin/agent-runs-job-entrypoint.js', import.meta.url));

/** Prints the secret once, waits for the test's go (the file its prompt names), then prints it again (plainly and base64) and names it in its result. */
const AGENT_SOURCE = `
const fs = require('fs');
const go = (process.env.AGENT_RUNS_PROMPT || '').trim();
const key = process.env.DEPLOY_KEY || '';
console.log('before ' + key);
const wait = setInterval(() => {
  if (!fs.existsSync(go)) return;
  clearInterval(wait);
  console.log('after ' + key);
  console.error('encoded ' + Buffer.from(key).toString('base64'));
  fs.writeFileSync(process.env.AGENT_RUNS_REPORT_FILE, JSON.stringify({ type: 'RESULT', message: 'done with ' + key }) + '\\n');
}, 50);
`;

async function setUp({ onTestFinished }: TestContext) {
  const processes: (ServerProcess | WorkerProcess)[] = [];
  let cluster: ScriptedKubernetes | undefined;
  onTestFinished(async () => {
    await killProcesses(processes);
    await cluster?.close();
  });
  const serverConfig = writeServerConfig({ workers: { pool: { token: { from_env: 'AGENT_RUNS_K8S_WORKER_TOKEN' }, worker_hosts: ['kube'] } }, environments: { vault: {} } });
  const server = await startServerProcess(['--memory', '--api-key', `tester=${TESTER_KEY}`, '--config', serverConfig], { ...process.env, AGENT_RUNS_K8S_WORKER_TOKEN: TOKEN });
  processes.push(server);
  cluster = await ScriptedKubernetes.start();
  const dir = tempTree();
  const agent = join(dir, 'agent.cjs');
  writeFileSync(agent, AGENT_SOURCE);
  const workerConfig = writeServerConfig(
    {
      kubernetes: { image: 'registry.example/agent:1', entrypoint: [process.execPath, ENTRYPOINT] },
      secrets: { DEPLOY_KEY: { from_env: 'K8S_TEST_DEPLOY_KEY' } },
      environments: { vault: { secrets: ['DEPLOY_KEY'] } },
    },
    tempTree(),
  );
  const kubeconfig = cluster.writeKubeconfig(dir);
  // One port for the worker and the one restarted after it, as a pod's port is: the pods keep reporting to it.
  const jobPort = await freePort();
  const root = server.baseURL.replace(/\/api\/v1$/, '');
  const startWorker = async (secret: string) => {
    const worker = await startWorkerProcess(
      ['--server', root, '--worker-host', 'kube', '--backend', 'kubernetes', '--config', workerConfig, '--command', `${JSON.stringify(process.execPath)} ${JSON.stringify(agent)}`, '--job-listen', `127.0.0.1:${jobPort}`, '--instance-id', 'kube-worker-0'],
      TOKEN,
      { ...process.env, KUBECONFIG: kubeconfig, K8S_TEST_DEPLOY_KEY: secret },
    );
    processes.push(worker);
    return worker;
  };
  return { server, cluster, dir, startWorker };
}

describe("a reattached Job's output, against a scripted Kubernetes API", () => {
  it("a worker killed (-9) while its run's agent runs, then restarted with the secret rotated: what the agent prints after holds the mask, never the secret it was given", async (context) => {
    const { expect } = context;
    const { server, cluster, dir, startWorker } = await setUp(context);
    const first = await startWorker(SECRET);
    const go = join(dir, 'go');
    const created = await api(server, '/agent/run', { method: 'POST', body: { prompt: go, config: { worker_host: 'kube', environment_id: 'vault' } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.run_id as string;
    await eventually(() => outputOf(server, id), (output) => output.includes('before'), 30_000);
    expect(cluster.jobOf(id)!.env!['DEPLOY_KEY']).toBe(SECRET);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startWorker(ROTATED);
    await eventually(() => second.stderr(), (stderr) => /followed again after a restart/.test(stderr), 30_000);
    writeFileSync(go, '');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(cluster.created).toHaveLength(1);
    const output = await outputOf(server, id);
    expect(output).toContain('before ***');
    expect(output).toContain('after ***');
    expect(output).toContain('encoded ***');
    expect(output).not.toContain(SECRET);
    expect(output).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 24));
    expect(run.status_message.message).toBe('done with ***');
  }, 90_000);
});
