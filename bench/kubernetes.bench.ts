/**
 * The Job backend's cost to a run's start, against the process backend on the same kind of
 * worker (issue: runs on Kubernetes): a run's lease (its `started_at`, the server's clock) to
 * its agent's process started (the agent prints the time it starts; one machine, one clock),
 * N runs each way, interleaved, one at a time. The Kubernetes side runs against the scripted
 * API stand-in with no delay of its own (`packages/server/test/support/scripted-kubernetes.ts`,
 * in this process): its "kubelet" starts the pod's command as soon as the Job is resumed.
 * Each Job's start is split per run: the worker's own time (the lease → the Job made
 * suspended, its Secret made, the Job resumed at the API), the stand-in's (the resume
 * received → the pod's command running), and the pod's
 * entrypoint (its start → the agent started: a Node process starting, which a real pod pays
 * as part of its container's start). Target: the worker's own time at most 200 ms more than
 * the process backend's whole start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ScriptedKubernetes } from '../packages/server/test/support/scripted-kubernetes.js';
import type { BenchRow } from './bench-row.js';
import { BENCH_AUTH as AUTH, BENCH_KEY as KEY, fmt, percentile } from './server-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDist = pathToFileURL(join(root, 'packages/server/dist/index.js')).href;
const WORKER_BIN = join(root, 'packages/server/bin/agent-runs-worker.js');
const ENTRYPOINT = join(root, 'packages/server/bin/agent-runs-job-entrypoint.js');
const TOKEN = 'bench-kube-worker-token-0123456789';
/** Runs each way. */
const RUNS = Number(process.env['KUBERNETES_BENCH_RUNS'] ?? 30);
/** The agent: the time it starts, and when its pod's command started (the process backend has no pod: 0). */
const AGENT = 'echo "agent-start $(date +%s%N) ${POD_START:-0}"';

const serverScript = `
import { startServer } from ${JSON.stringify(serverDist)};
const s = await startServer({ dataDir: process.env.DATA_DIR, configFile: process.env.CONFIG, apiKeys: [{ key: ${JSON.stringify(KEY)}, principal: 'bench' }],
  quiet: true, executor: 'command', command: 'true', sandbox: 'off', concurrency: 1 });
process.stdout.write(s.url + '\\n');
process.on('SIGTERM', () => s.close().then(() => process.exit(0)));
`;

interface Child {
  child: ChildProcess;
  exited: Promise<unknown>;
}

async function startServerChild(dir: string): Promise<Child & { origin: string }> {
  const config = join(dir, 'server.yaml');
  writeFileSync(config, `workers:\n  bench:\n    token: { from_env: BENCH_WORKER_TOKEN }\n    worker_hosts: [local, kube]\n`);
  const child = spawn(process.execPath, ['--input-type=module', '-e', serverScript], {
    env: { ...process.env, DATA_DIR: join(dir, 'data'), CONFIG: config, BENCH_WORKER_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, exited, origin: chunk.toString().trim() };
}

async function startWorker(args: string[], env: NodeJS.ProcessEnv): Promise<Child> {
  const child = spawn(process.execPath, [WORKER_BIN, ...args], { env: { ...env, AGENT_RUNS_WORKER_TOKEN: TOKEN }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = once(child, 'exit');
  let said = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      said += text;
      if (said.includes('Connected to ')) resolve();
    });
    void exited.then(() => reject(new Error(`agent-runs-worker exited:\n${said}`)));
  });
  return { child, exited };
}

async function api(origin: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${origin}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

interface Start {
  /** The lease → the agent started, ms. */
  total: number;
  /** Kubernetes: the Job created at the API → the pod's command running (the stand-in's own time), ms. */
  standIn: number;
  /** Kubernetes: the lease → the Job created at the API (the worker's own time), ms. */
  worker: number;
}

async function oneRun(origin: string, workerHost: string, cluster: ScriptedKubernetes | undefined): Promise<Start> {
  const { run_id: id } = await api(origin, '/agent/run', { prompt: 'go', config: { worker_host: workerHost } });
  let run: any;
  for (;;) {
    run = await api(origin, `/agent/runs/${id}`);
    if (['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED', 'BLOCKED'].includes(run.state)) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (run.state !== 'SUCCEEDED') throw new Error(`run ${id} ended ${run.state}: ${run.status_message?.message}`);
  const output = JSON.stringify(await api(origin, `/agent/runs/${id}/output`));
  const [, agentNs, podNs] = /agent-start (\d+) (\d+)/.exec(output) ?? [];
  if (!agentNs) throw new Error(`run ${id}: the agent's start line is missing from ${output.slice(0, 300)}`);
  const lease = Date.parse(run.started_at);
  const agent = Number(BigInt(agentNs) / 1000n) / 1000;
  if (!cluster) return { total: agent - lease, standIn: 0, worker: 0 };
  const pod = Number(BigInt(podNs!) / 1000n) / 1000;
  // The Job is made suspended and resumed once its Secret is there: the resume is where the stand-in's part begins.
  const resumed = cluster.requests.find((r) => r.method === 'PATCH' && /\/jobs\/[^/]+$/.test(r.path) && r.at >= lease - 5);
  const resumedAt = resumed?.at ?? pod;
  cluster.requests.length = 0;
  return { total: agent - lease, standIn: pod - resumedAt, worker: resumedAt - lease };
}

export default async function kubernetesBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'kubernetes-bench-'));
  const cluster = await ScriptedKubernetes.start();
  const children: Child[] = [];
  try {
    const server = await startServerChild(dir);
    children.push(server);
    const base = ['--server', server.origin, '--concurrency', '1', '--command', AGENT];
    children.push(await startWorker([...base, '--worker-host', 'local', '--instance-id', 'local-0', '--sandbox', 'off', '--work-dir', join(dir, 'local')], process.env));
    const config = join(dir, 'worker.yaml');
    // The pod's command notes when it starts, then is the entrypoint (exec: no process between).
    writeFileSync(config, JSON.stringify({ kubernetes: { image: 'bench/agent:1', entrypoint: ['/bin/sh', '-c', 'POD_START=$(date +%s%N) exec "$0" "$@"', process.execPath, ENTRYPOINT] } }));
    const kubeconfig = cluster.writeKubeconfig(dir);
    children.push(
      await startWorker([...base, '--worker-host', 'kube', '--instance-id', 'kube-0', '--backend', 'kubernetes', '--config', config, '--job-listen', '127.0.0.1:0'], { ...process.env, KUBECONFIG: kubeconfig }),
    );
    // One of each first, not counted: the first run of a process pays for loading its code.
    await oneRun(server.origin, 'local', undefined);
    await oneRun(server.origin, 'kube', cluster);
    const local: Start[] = [];
    const kube: Start[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, so that what else the machine does falls on both sides alike.
      local.push(await oneRun(server.origin, 'local', undefined));
      kube.push(await oneRun(server.origin, 'kube', cluster));
    }
    const localTotal = local.map((s) => s.total);
    const kubeTotal = kube.map((s) => s.total);
    const kubeWorker = kube.map((s) => s.worker);
    const standIn = kube.map((s) => s.standIn);
    const entrypoint = kube.map((s) => s.total - s.standIn - s.worker);
    const p = (values: number[], q: number) => fmt(percentile(values, q), 1);
    const added = (q: number) => percentile(kubeWorker, q) - percentile(localTotal, q);
    const signed = (ms: number) => `${ms < 0 ? '−' : '+'}${fmt(Math.abs(ms), 1)} ms`;
    return [
      {
        suite: 'kubernetes',
        measure: `a run's start (lease → agent started), Job backend (stand-in, no delay) vs process backend, ${RUNS} runs each, interleaved`,
        value: `Job p50 ${p(kubeTotal, 50)} ms, p99 ${p(kubeTotal, 99)} ms`,
        baseline: `process p50 ${p(localTotal, 50)} ms, p99 ${p(localTotal, 99)} ms`,
        ratio: `${signed(percentile(kubeTotal, 50) - percentile(localTotal, 50))} p50`,
        target: 'reported',
      },
      {
        suite: 'kubernetes',
        measure: "the worker's own time in a Job's start (lease → Job made suspended, its Secret made, the Job resumed at the API) against the process backend's start",
        value: `p50 ${p(kubeWorker, 50)} ms, p99 ${p(kubeWorker, 99)} ms`,
        baseline: `process (lease → agent started) p50 ${p(localTotal, 50)} ms, p99 ${p(localTotal, 99)} ms`,
        ratio: `${signed(added(50))} p50, ${signed(added(99))} p99`,
        target: '<= +200 ms (p99)',
        met: added(99) <= 200,
      },
      {
        suite: 'kubernetes',
        measure: "the rest of a Job's start, not the worker's: the stand-in's own (Job resumed → pod command running), then the pod's entrypoint (its start → the agent started)",
        value: `entrypoint p50 ${p(entrypoint, 50)} ms, p99 ${p(entrypoint, 99)} ms`,
        baseline: `stand-in p50 ${p(standIn, 50)} ms, p99 ${p(standIn, 99)} ms`,
        target: 'reported',
      },
    ];
  } finally {
    for (const c of children.reverse()) {
      c.child.kill('SIGTERM');
      await c.exited;
    }
    await cluster.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
