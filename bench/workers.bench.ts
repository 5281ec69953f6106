/**
 * Self-hosted workers, against the server's own executor measured in the same run:
 * - a queued run taken by an idle worker: p99 of started_at − created_at (both the server's
 *   clock) over sequential runs, against the same for runs on the server's own executor;
 * - an agent's output line to a client of the run's event stream, through a worker and on
 *   the server's own executor (the line holds the time it was printed; one machine, one clock);
 * - runs of a 1 s agent through 1, 2 and 4 workers (concurrency 4 each): runs/s against
 *   0.9 × N × one worker's, and the 4 workers' against the agent spawned directly 16 at a
 *   time (what two cores allow at all);
 * - the server's CPU per run executed by a worker against per run executed by itself;
 * - the requests an idle worker makes of the server, counted by a proxy between them.
 * The server and the workers are child processes (the server on a SQLite file, the workers
 * the `agent-runs-worker` bin); agents are unsandboxed shell commands on both sides, so the
 * two sides differ only in where the agent runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';
import { BENCH_AUTH as AUTH, BENCH_KEY as KEY, cpuSeconds, fmt, percentile } from './server-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDist = pathToFileURL(join(root, 'packages/server/dist/index.js')).href;
const coreDist = pathToFileURL(join(root, 'packages/core/dist/index.js')).href;
type Core = typeof import('../packages/core/dist/index.js');
const WORKER_BIN = join(root, 'packages/server/bin/agent-runs-worker.js');
const TOKEN = 'bench-worker-token-0123456789abcdef';
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
/** Sequential runs per side for the take latency. */
const TAKES = env('WORKERS_BENCH_TAKES', 100);
/** Runs per side for the server's CPU per run. */
const CPU_RUNS = env('WORKERS_BENCH_CPU_RUNS', 120);
/** How long the idle worker is watched. */
const IDLE_MS = env('WORKERS_BENCH_IDLE_MS', 30_000);
/** Each worker's slots in the throughput rows, and the runs each slot gets. */
const SLOTS = 4;
const RUNS_PER_SLOT = 3;

/** Output lines per run, and runs per side, for the output latency. */
const LINES = 40;
const LINE_RUNS = env('WORKERS_BENCH_LINE_RUNS', 5);
/**
 * The agent: reads its prompt; `lines` prints LINES lines of the time in nanoseconds 50 ms
 * apart, a number sleeps that many seconds (0 for none); then it prints a line.
 */
const AGENT = `read -r s; case "$s" in lines) for i in $(seq ${LINES}); do date +%s%N; sleep 0.05; done;; 0) ;; *) sleep "$s";; esac; echo done`;

const serverScript = `
import { startServer } from ${JSON.stringify(serverDist)};
const s = await startServer({ dataDir: process.env.DATA_DIR, configFile: process.env.CONFIG, apiKeys: [{ key: ${JSON.stringify(KEY)}, principal: 'bench' }],
  quiet: true, executor: 'command', command: ${JSON.stringify(AGENT)}, sandbox: 'off', concurrency: 16 });
process.stdout.write(s.url + '\\n');
process.on('SIGTERM', () => s.close().then(() => process.exit(0)));
`;

interface Child {
  child: ChildProcess;
  exited: Promise<unknown>;
}

async function startServerChild(dir: string): Promise<Child & { origin: string }> {
  const config = join(dir, 'server.yaml');
  writeFileSync(config, `workers:\n  bench:\n    token: { from_env: BENCH_WORKER_TOKEN }\n    worker_hosts: [bench]\n`);
  const child = spawn(process.execPath, ['--input-type=module', '-e', serverScript], {
    env: { ...process.env, DATA_DIR: join(dir, 'data'), CONFIG: config, BENCH_WORKER_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, exited, origin: chunk.toString().trim() };
}

async function startWorker(server: string, dir: string, name: string): Promise<Child> {
  const child = spawn(process.execPath, [WORKER_BIN, '--server', server, '--worker-host', 'bench', '--instance-id', name, '--concurrency', String(SLOTS), '--command', AGENT, '--sandbox', 'off', '--work-dir', join(dir, name)], {
    env: { ...process.env, AGENT_RUNS_WORKER_TOKEN: TOKEN },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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

async function stop(...children: Child[]): Promise<void> {
  for (const c of children) c.child.kill('SIGTERM');
  await Promise.all(children.map((c) => c.exited));
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

const create = async (origin: string, prompt: string, remote: boolean): Promise<string> =>
  (await api(origin, '/agent/run', { prompt, ...(remote ? { config: { worker_host: 'bench' } } : {}) })).run_id as string;

async function ended(origin: string, id: string): Promise<any> {
  for (;;) {
    const run = await api(origin, `/agent/runs/${id}`);
    if (['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED', 'BLOCKED'].includes(run.state)) {
      if (run.state !== 'SUCCEEDED') throw new Error(`run ${id} ended ${run.state}: ${run.status_message?.message}`);
      return run;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** started_at − created_at of sequential runs, in ms. */
async function takeDelays(origin: string, remote: boolean, n: number): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < n; i++) {
    const run = await ended(origin, await create(origin, '0', remote));
    delays.push(Date.parse(run.started_at) - Date.parse(run.created_at));
  }
  return delays;
}

/** From an agent printing a line to a streaming client receiving it, in ms, over `runs` runs (the agent's clock is this machine's). */
async function lineDelays(core: Core, origin: string, remote: boolean, runs: number): Promise<number[]> {
  const client = new core.AgentRunsClient({ baseURL: `${origin}/api/v1`, apiKey: KEY });
  const delays: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const id = await create(origin, 'lines', remote);
      for await (const event of client.runs.events(id)) {
        if (event.type !== 'output') continue;
        const now = Date.now();
        for (const line of event.data.text.split('\n')) if (/^\d{19}$/.test(line)) delays.push(now - Number(BigInt(line) / 1000n) / 1000);
      }
    }
  } finally {
    await client.close();
  }
  return delays;
}

/** Runs of a 1 s agent, all created at once; completed runs per second. */
async function runsPerSecond(origin: string, runs: number): Promise<number> {
  const started = performance.now();
  const ids = await Promise.all(Array.from({ length: runs }, () => create(origin, '1', true)));
  await Promise.all(ids.map((id) => ended(origin, id)));
  return runs / ((performance.now() - started) / 1000);
}

/**
 * The same runs of the 1 s agent with no server or worker: the agent command spawned
 * directly, `slots` at a time. What this machine can do at all with that many agents at once
 * (on two cores, a 1 s agent plus its shell and process starts is not free).
 */
async function bareRunsPerSecond(slots: number, runs: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < runs) {
      next++;
      const child = spawn('sh', ['-c', AGENT], { stdio: ['pipe', 'ignore', 'ignore'] });
      child.stdin!.end('1\n');
      await once(child, 'exit');
    }
  };
  await Promise.all(Array.from({ length: slots }, one));
  return runs / ((performance.now() - started) / 1000);
}

/** The server's CPU per run of `n` runs without a pause (created 8 at a time). */
async function cpuPerRun(server: Child & { origin: string }, remote: boolean, n: number): Promise<number> {
  const before = cpuSeconds(server.child.pid);
  for (let i = 0; i < n; i += 8) {
    const ids = await Promise.all(Array.from({ length: Math.min(8, n - i) }, () => create(server.origin, '0', remote)));
    await Promise.all(ids.map((id) => ended(server.origin, id)));
  }
  return ((cpuSeconds(server.child.pid) - before) / n) * 1000;
}

/** A loopback proxy that counts the requests it passes on to `target`. */
async function countingProxy(target: string): Promise<{ url: string; count: () => number; close: () => void }> {
  const to = new URL(target);
  let count = 0;
  const proxy = createServer((req, res) => {
    count++;
    const out = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, count: () => count, close: () => proxy.close() };
}

export default async function bench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-bench-workers-'));
  // Agents run as nobody when the bench runs as root: their directories must be reachable.
  chmodSync(dir, 0o711);
  const rows: BenchRow[] = [];
  const server = await startServerChild(dir);
  const workers: Child[] = [];
  try {
    workers.push(await startWorker(server.origin, dir, 'w1'));
    // Warm both paths (the first runs compile and open what later runs reuse).
    await takeDelays(server.origin, true, 5);
    await takeDelays(server.origin, false, 5);

    const [remote, local] = [await takeDelays(server.origin, true, TAKES), await takeDelays(server.origin, false, TAKES)];
    rows.push({
      suite: 'workers',
      measure: `a queued run taken by an idle worker (started_at − created_at, ${TAKES} sequential runs)`,
      value: `p99 ${fmt(percentile(remote, 99))} ms`,
      baseline: `p50 ${fmt(percentile(remote, 50))} ms; the server's own executor p50 ${fmt(percentile(local, 50))} ms, p99 ${fmt(percentile(local, 99))} ms`,
      target: 'p99 <= 50 ms',
      met: percentile(remote, 99) <= 50,
    });

    const core = (await import(coreDist)) as Core;
    const [lineRemote, lineLocal] = [await lineDelays(core, server.origin, true, LINE_RUNS), await lineDelays(core, server.origin, false, LINE_RUNS)];
    rows.push({
      suite: 'workers',
      measure: `an agent's output line to a streaming client (${lineRemote.length} lines of ${LINE_RUNS} runs each way)`,
      value: `p99 ${fmt(percentile(lineRemote, 99), 1)} ms through a worker`,
      baseline: `p99 ${fmt(percentile(lineLocal, 99), 1)} ms on the server's own executor (p50 ${fmt(percentile(lineRemote, 50), 1)} / ${fmt(percentile(lineLocal, 50), 1)} ms)`,
      ratio: `+${fmt(percentile(lineRemote, 99) - percentile(lineLocal, 99), 1)} ms`,
      target: "p99 <= the server's own + 10 ms",
      met: percentile(lineRemote, 99) <= percentile(lineLocal, 99) + 10,
    });

    const cpuRemote = await cpuPerRun(server, true, CPU_RUNS);
    const cpuLocal = await cpuPerRun(server, false, CPU_RUNS);
    rows.push({
      suite: 'workers',
      measure: `server CPU per run executed by a worker (${CPU_RUNS} runs each way)`,
      value: `${fmt(cpuRemote, 2)} ms`,
      baseline: `${fmt(cpuLocal, 2)} ms per run on the server's own executor`,
      ratio: `${fmt(cpuRemote / cpuLocal, 2)}x`,
      target: '<= 1.5x',
      met: cpuRemote / cpuLocal <= 1.5,
    });

    const rates: number[] = [];
    for (const n of [1, 2, 4]) {
      while (workers.length < n) workers.push(await startWorker(server.origin, dir, `w${workers.length + 1}`));
      rates.push(await runsPerSecond(server.origin, n * SLOTS * RUNS_PER_SLOT));
    }
    const bare = await bareRunsPerSecond(4 * SLOTS, 4 * SLOTS * RUNS_PER_SLOT);
    for (const [i, n] of [1, 2, 4].entries()) {
      if (n === 1) continue;
      const ratio = rates[i]! / (n * rates[0]!);
      rows.push({
        suite: 'workers',
        measure: `runs of a 1 s agent through ${n} workers (${SLOTS} slots each, ${n * SLOTS * RUNS_PER_SLOT} runs)`,
        value: `${fmt(rates[i]!, 2)} runs/s`,
        baseline: `${fmt(rates[0]!, 2)} runs/s through one worker`,
        ratio: `${fmt(ratio, 2)}x of ${n}x`,
        target: `>= 0.9 x ${n} x one's`,
        met: ratio >= 0.9,
      });
    }
    rows.push({
      suite: 'workers',
      measure: `the same ${4 * SLOTS * RUNS_PER_SLOT} runs with no server or worker: the agent spawned directly, ${4 * SLOTS} at a time`,
      value: `${fmt(rates[2]!, 2)} runs/s through 4 workers`,
      baseline: `${fmt(bare, 2)} runs/s spawned directly`,
      ratio: `${fmt(rates[2]! / bare, 2)}x`,
      target: 'report: what this machine allows the row above',
    });
    await stop(...workers.splice(0));

    const proxy = await countingProxy(server.origin);
    const idle = await startWorker(proxy.url, dir, 'idle');
    const before = proxy.count();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const per10s = ((proxy.count() - before) / IDLE_MS) * 10_000;
    await stop(idle);
    proxy.close();
    rows.push({
      suite: 'workers',
      measure: `requests an idle worker makes of the server (counted over ${fmt(IDLE_MS / 1000)} s)`,
      value: `${fmt(per10s, 2)} per 10 s`,
      target: '<= 1 per 10 s',
      met: per10s <= 1,
    });
  } finally {
    await stop(...workers, server);
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
