/**
 * Webhooks (issue 24):
 * - 1,000 runs that end in one burst, each `run.succeeded` delivered to a receiver on
 *   loopback: p99 from the state change (the run's `updated_at`) to the receiver (≤ 100 ms);
 * - POST /agent/run creates per second with 5 subscriptions against none, in the same run,
 *   on fresh servers measured alternately, four rounds each (within 10%).
 * The servers are child processes on SQLite files; the load generator and the receiver live here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';
import { BENCH_AUTH as AUTH, BENCH_KEY as KEY, cpuSeconds, fmt, machineTicks, percentile, throughput } from './server-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDist = pathToFileURL(join(root, 'packages/server/dist/index.js')).href;
const RUNS = 1000;
const CREATE_SECONDS = 3;
/** Rounds of each create setting, alternated: with two, the ratio moved 0.74–0.90x between runs of one build; with four, 0.84–0.90x. */
const CREATE_ROUNDS = 6;
/** When the burst comes, after the first create: time enough to create every run first. */
const BURST_AFTER_MS = 30_000;
/** Extra node flags for the servers, to profile them: `WEBHOOKS_BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=prof'`. */
const NODE_ARGS = (process.env['WEBHOOKS_BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

const serverScript = (options: Record<string, unknown>) => `
import { startServer } from ${JSON.stringify(serverDist)};
const s = await startServer({ dataDir: process.env.DATA_DIR, apiKeys: [{ key: ${JSON.stringify(KEY)}, principal: 'bench' }],
  quiet: true, allowPrivateWebhooks: true, ...${JSON.stringify(options)} });
process.stdout.write(s.url + '\\n');
process.on('SIGTERM', () => s.close().then(() => process.exit(0)));
`;

async function startChild(options: Record<string, unknown>): Promise<{ origin: string; child: ChildProcess; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-bench-webhooks-'));
  const child = spawn(process.execPath, [...NODE_ARGS, '--input-type=module', '-e', serverScript(options)], { env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { origin: chunk.toString().trim(), child, dataDir };
}

async function stopChild(server: { child: ChildProcess; dataDir: string }): Promise<void> {
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  await exited;
  rmSync(server.dataDir, { recursive: true, force: true });
}

/** A receiver that answers 200 at once and notes when each event came. */
async function startReceiver() {
  const arrivals: { type: string; updatedAt: string; at: number }[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(parts).toString('utf8')) as { type: string; data: { updated_at?: string } };
      arrivals.push({ type: event.type, updatedAt: event.data.updated_at ?? '', at });
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, arrivals, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

// A receiver of its own for the create rates, so the deliveries do not slow the load generator measured here.
const SINK_SCRIPT = `
import { createServer } from 'node:http';
const s = createServer((req, res) => { req.resume(); req.on('end', () => res.end()); });
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => process.stdout.write('http://127.0.0.1:' + s.address().port + '/hooks\\n'));
`;

async function post(origin: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${origin}/api/v1${path}`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

async function waitFor(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export default async function webhooksBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const receiver = await startReceiver();
  try {
    // A burst: 1,000 runs started together (concurrency 1,000) end within moments of each other.
    // Each run is given the time left until one common end, so however long the creates take, they all end together.
    const burst = await startChild({ concurrency: RUNS });
    await post(burst.origin, '/agent/webhooks', { url: receiver.url, event_types: ['run.succeeded'] });
    const endAt = Date.now() + BURST_AFTER_MS;
    for (let i = 0; i < RUNS; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => post(burst.origin, '/agent/runs', { prompt: `burst ${i + j} [simulate ${Math.max(100, endAt - Date.now())}ms]` })));
    }
    // The server's CPU from just before the burst to its last delivery: what an ending and its delivery cost.
    await new Promise((r) => setTimeout(r, Math.max(0, endAt - 500 - Date.now())));
    const cpuBefore = cpuSeconds(burst.child.pid);
    await waitFor(() => receiver.arrivals.length >= RUNS, 60_000, 'every run.succeeded delivered');
    const burstCpuMs = (cpuSeconds(burst.child.pid) - cpuBefore) * 1000;
    await stopChild(burst);
    const delays = receiver.arrivals.map((a) => a.at - Date.parse(a.updatedAt));
    const changes = receiver.arrivals.map((a) => Date.parse(a.updatedAt));
    const fromDue = receiver.arrivals.map((a) => a.at - endAt);
    const p99 = percentile(delays, 99);
    rows.push({
      suite: 'webhooks',
      measure: `${RUNS} runs ending in a burst (${fmt(Math.max(...changes) - Math.min(...changes))} ms): state change → receiver`,
      value: `p99 ${fmt(p99)} ms`,
      // From the moment every run was due to end: what the server's recording of the whole burst adds.
      baseline: `p50 ${fmt(percentile(delays, 50))} ms, max ${fmt(Math.max(...delays))} ms; from the burst's start p50 ${fmt(percentile(fromDue, 50))} ms, p99 ${fmt(percentile(fromDue, 99))} ms`,
      target: 'p99 <= 100 ms',
      met: p99 <= 100,
    });
    rows.push({
      suite: 'webhooks',
      measure: `server CPU per run ending in the burst, its delivery included`,
      value: `${fmt((burstCpuMs / RUNS) * 1000)} µs`,
      target: 'report',
    });

    // Creates with 5 subscriptions against none: fresh servers, measured alternately.
    const createBody = { prompt: 'Benchmark run [simulate 50ms]', config: { name: 'bench' } };
    const next = () => ({ method: 'POST' as const, path: '/api/v1/agent/run', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(createBody) });
    const sink = spawn(process.execPath, ['--input-type=module', '-e', SINK_SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
    const sinkUrl = ((await once(sink.stdout!, 'data')) as [Buffer])[0].toString().trim();
    const rates: { none: number[]; five: number[] } = { none: [], five: [] };
    const cpuPerCreate: { none: number[]; five: number[] } = { none: [], five: [] };
    // What every process on the machine spent per create, and how busy its cores were.
    const machinePerCreate: { none: number[]; five: number[] } = { none: [], five: [] };
    const busyShare: { none: number[]; five: number[] } = { none: [], five: [] };
    // The receiver's CPU per create: it runs on the same cores as the server and the load generator.
    const receiverPerCreate: number[] = [];
    const cores = availableParallelism();
    for (const kind of Array.from({ length: CREATE_ROUNDS }, () => ['none', 'five'] as const).flat()) {
      const server = await startChild({ concurrency: 4, simulatedDurationMs: 50 });
      if (kind === 'five') {
        // What users ask for: a push when a run ends.
        for (let i = 0; i < 5; i++) await post(server.origin, '/agent/webhooks', { url: sinkUrl, event_types: ['run.succeeded', 'run.failed', 'run.cancelled'] });
      }
      const cpuBefore = cpuSeconds(server.child.pid);
      const sinkBefore = cpuSeconds(sink.pid);
      const ticksBefore = machineTicks();
      const rate = await throughput([server.origin], CREATE_SECONDS, next);
      const ticksAfter = machineTicks();
      rates[kind].push(rate);
      // Over the warm-up too (half a second): the same for both kinds.
      const creates = rate * (CREATE_SECONDS + 0.5);
      cpuPerCreate[kind].push((cpuSeconds(server.child.pid) - cpuBefore) / creates);
      if (kind === 'five') receiverPerCreate.push((cpuSeconds(sink.pid) - sinkBefore) / creates);
      const busyTicks = ticksAfter.busy - ticksBefore.busy;
      busyShare[kind].push(busyTicks / (ticksAfter.total - ticksBefore.total));
      // Ticks are hundredths of a second of one core.
      machinePerCreate[kind].push(busyTicks / 100 / creates);
      await stopChild(server);
    }
    sink.kill();
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const none = mean(rates.none);
    const five = mean(rates.five);
    rows.push({
      suite: 'webhooks',
      measure: 'POST /agent/run with 5 subscriptions to run endings',
      value: `${fmt(five)} creates/s`,
      // Each round's pair apart too: the machine's speed drifts between rounds more than within one.
      baseline: `${fmt(none)} creates/s (no subscription); median of the ${CREATE_ROUNDS} pairs' ratios ${fmt(percentile(rates.five.map((f, i) => f / rates.none[i]!), 50), 2)}x`,
      ratio: `${fmt(five / none, 2)}x`,
      target: '>= 0.9x',
      met: five / none >= 0.9,
    });
    // The same comparison in server CPU time per create, which a busy machine does not skew.
    const cpuNone = mean(cpuPerCreate.none) * 1000;
    const cpuFive = mean(cpuPerCreate.five) * 1000;
    if (Number.isFinite(cpuNone) && Number.isFinite(cpuFive)) {
      rows.push({
        suite: 'webhooks',
        measure: 'server CPU per create (with its share of deliveries), 5 subscriptions',
        value: `${fmt(cpuFive, 2)} ms`,
        baseline: `${fmt(cpuNone, 2)} ms (no subscription)`,
        ratio: `${fmt(cpuNone / cpuFive, 2)}x`,
        target: '>= 0.9x',
        met: cpuNone / cpuFive >= 0.9,
      });
    }
    const receiverCpu = mean(receiverPerCreate) * 1e6;
    if (Number.isFinite(receiverCpu)) {
      rows.push({
        suite: 'webhooks',
        measure: "receiver CPU per create (its share of the 5 subscriptions' deliveries), on the same cores",
        value: `${fmt(receiverCpu, 1)} µs`,
        baseline: `${fmt(cpuNone * 1000, 0)} µs server CPU per create with no subscription`,
        target: 'report',
      });
    }
    // On a machine whose cores are all busy, the rate follows the CPU of every process per
    // create: the receiver's share of the deliveries counts as much as the server's.
    const machineNone = mean(machinePerCreate.none) * 1000;
    const machineFive = mean(machinePerCreate.five) * 1000;
    if (Number.isFinite(machineNone) && Number.isFinite(machineFive)) {
      rows.push({
        suite: 'webhooks',
        measure: `machine CPU per create (server, receiver, load generator), 5 subscriptions; ${cores} cores ${fmt(mean(busyShare.five) * 100)}% busy (none: ${fmt(mean(busyShare.none) * 100)}%)`,
        value: `${fmt(machineFive, 2)} ms`,
        baseline: `${fmt(machineNone, 2)} ms (no subscription)`,
        ratio: `${fmt(machineNone / machineFive, 2)}x`,
        target: 'for reading the rate above',
      });
    }
  } finally {
    await receiver.close();
  }
  rows.push(await claimInFlight());
  return rows;
}

/** Deliveries leased and not yet answered while a claim is measured: a busy receiver's share of the 64 slots. */
const IN_FLIGHT = 60;

/**
 * A claim of 4 deliveries on SQLite with IN_FLIGHT others leased, against the same claim with
 * none leased, on one store, alternately: what the deliveries in flight add to each claim.
 */
async function claimInFlight(): Promise<BenchRow> {
  const { openSqliteStorage } = (await import(pathToFileURL(join(root, 'packages/server/dist/store/open-sqlite-storage.js')).href)) as typeof import('../packages/server/dist/store/open-sqlite-storage.js');
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-bench-claims-'));
  const storage = openSqliteStorage(join(dir, 'runs.sqlite'));
  try {
    const at = new Date().toISOString();
    const now = Date.now();
    await storage.webhooks.createSubscription({
      ...{ id: 'wh_bench', ownerUid: null, url: 'https://receiver.example/hooks', eventTypes: ['run.succeeded'], filter: {}, thin: false, enabled: true },
      ...{ disabledReason: null, description: null, secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0', previousSecret: null, previousSecretExpiresAt: null, declared: false, createdAt: at, updatedAt: at },
    });
    const body = JSON.stringify({ type: 'run.succeeded', data: { prompt: 'x'.repeat(2000) } });
    await storage.webhooks.fanOut(
      [],
      Array.from({ length: 200 }, (_, i) => ({ id: `msg_${i}`, subscriptionId: 'wh_bench', eventSeq: i, eventType: 'run.succeeded', orderKey: `run_${i}`, payload: `${body}${i}`, nextAttemptAt: now, createdAt: at })),
    );
    const claim = (owner: string, limit: number) => storage.webhooks.claim({ owner, now, leaseMs: 3_600_000, limit });
    const timeProbe = async () => {
      const started = process.hrtime.bigint();
      await claim('probe', 4);
      const micros = Number(process.hrtime.bigint() - started) / 1000;
      await storage.webhooks.releaseLeases('probe');
      return micros;
    };
    const none: number[] = [];
    const busy: number[] = [];
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 50; i++) none.push(await timeProbe());
      await claim('held', IN_FLIGHT);
      for (let i = 0; i < 50; i++) busy.push(await timeProbe());
      await storage.webhooks.releaseLeases('held');
    }
    const withNone = percentile(none, 50);
    const withBusy = percentile(busy, 50);
    return {
      suite: 'webhooks',
      measure: `a claim of 4 deliveries (SQLite, 2 KB bodies) with ${IN_FLIGHT} in flight, median`,
      value: `${fmt(withBusy, 1)} µs`,
      baseline: `${fmt(withNone, 1)} µs with none in flight`,
      ratio: `${fmt(withBusy / withNone, 2)}x`,
      target: 'report',
    };
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
