/**
 * What principal quotas cost a create: POST /agent/run on a server whose `quotas:` section
 * holds every create (creates per minute, runs queued and in flight, the daily spend) beside
 * the same server without one, and GET of a run on both (quotas are not read there). Each
 * server runs in its own child process on its own fresh SQLite file, and both are driven in
 * turn by the same load from this process. The figure held to the target is the server's own
 * CPU time per request (`process.cpuUsage()` inside it, read over IPC before and after each
 * round): on a shared machine a server's throughput moves with whatever else runs, its CPU per
 * request much less. The load is bursts answered in full before the next, so both servers
 * batch their writes alike however fast each is. The throughput ratio is reported beside it,
 * and the machine's load with both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Pool } from 'undici';
import type { BenchRow } from './bench-row.js';
import { BENCH_AUTH as AUTH, BENCH_KEY as KEY, bursts, fmt, machineTicks } from './server-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDist = pathToFileURL(join(root, 'packages/server/dist/index.js')).href;
const SECONDS = Number(process.env.BENCH_QUOTA_SECONDS ?? 0.5);
/** Each measure taken this many times, the two servers in turn, so a busy machine's drift falls on both alike. */
const ROUNDS = Number(process.env.BENCH_QUOTA_ROUNDS ?? 42);
/** Pairs of servers started one after the other, sharing the rounds. */
const PAIRS = Math.max(1, Number(process.env.BENCH_QUOTA_PAIRS ?? 3));
const ROUNDS_PER_PAIR = Math.max(1, Math.round(ROUNDS / PAIRS));
/** Requests sent together, each burst answered in full before the next: a server's batches of writes are this size, however fast it is. */
const BURST = Number(process.env.BENCH_QUOTA_BURST ?? 8);
/** Extra node flags for both servers, to profile them: `BENCH_QUOTA_NODE_ARGS='--cpu-prof --cpu-prof-dir=prof'`. */
const NODE_ARGS = (process.env.BENCH_QUOTA_NODE_ARGS ?? '').split(' ').filter(Boolean);

type Which = 'plain' | 'quota';
type Request = Parameters<Pool['request']>[0];

// The server on the SQLite file of DATA_DIR, answering any IPC message with its CPU time so far.
// Runs hang, one at a time: created runs stay QUEUED, so a window holds the create path and
// no run's execution.
const serverScript = (configFile: string | undefined) => `
import { startServer } from ${JSON.stringify(serverDist)};
const s = await startServer({ dataDir: process.env.DATA_DIR, port: 0, quiet: true, apiKeys: [{ key: ${JSON.stringify(KEY)}, principal: 'bench' }],
  concurrency: 1, configFile: ${JSON.stringify(configFile)} });
process.on('message', () => {
  const cpu = process.cpuUsage();
  process.send({ cpuMicros: cpu.user + cpu.system });
});
process.stdout.write(s.url + '\\n');
process.on('SIGTERM', () => s.close().then(() => process.exit(0)));
`;

interface ChildServer {
  url: string;
  /** The server process's CPU time so far (user and system), in µs. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

async function startChild(configFile: string | undefined): Promise<ChildServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-bench-quotas-'));
  const child: ChildProcess = spawn(process.execPath, [...NODE_ARGS, '--input-type=module', '-e', serverScript(configFile)], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  // A server that cannot start (a rule its configuration refuses, say) exits: the bench says so rather than wait on it forever.
  const chunk = await new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a bench server did not serve within 30 s')), 30_000);
    const failed = (code: number | null) => reject(new Error(`a bench server exited with code ${String(code)} before it served (its error is above)`));
    child.once('exit', failed);
    child.stdout!.once('data', (data: Buffer) => {
      clearTimeout(timer);
      child.off('exit', failed);
      resolve(data);
    });
  });
  return {
    url: chunk.toString().trim(),
    async cpuMicros() {
      const answer = once(child, 'message') as Promise<[{ cpuMicros: number }]>;
      child.send('cpu');
      return (await answer)[0].cpuMicros;
    },
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One round of one server: its CPU µs per request and requests per second. */
interface Round {
  cpu: number;
  rate: number;
}

/** The server's CPU read before and after a load: no request is in flight at either read. */
async function round(server: ChildServer, next: () => Request): Promise<Round> {
  const before = await server.cpuMicros();
  const served = await bursts(server.url, SECONDS, BURST, next);
  const after = await server.cpuMicros();
  return { cpu: (after - before) / served.requests, rate: served.requests / served.seconds };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * A figure's median on each server over the rounds, and the median of the rounds' quota/plain
 * ratios with its 95% confidence interval: the order statistics n/2 ± 0.98·√n of the sorted
 * ratios, which needs no assumption on how a busy machine spreads them.
 */
interface Compared {
  plain: number;
  quota: number;
  ratio: number;
  low: number;
  high: number;
}

function compare(rounds: Record<Which, Round[]>, figure: keyof Round): Compared {
  const ratios = rounds.quota.map((r, i) => r[figure] / rounds.plain[i]![figure]).sort((a, b) => a - b);
  const n = ratios.length;
  const reach = Math.ceil(0.98 * Math.sqrt(n));
  return {
    plain: median(rounds.plain.map((r) => r[figure])),
    quota: median(rounds.quota.map((r) => r[figure])),
    ratio: median(ratios),
    low: ratios[Math.max(0, Math.floor((n - 1) / 2) - reach)]!,
    high: ratios[Math.min(n - 1, Math.ceil((n - 1) / 2) + reach)]!,
  };
}

/** How busy the machine was while the bench ran: the load average at its start and end, and its cores' busy share. */
interface MachineLoad {
  loadBefore: number;
  loadAfter: number;
  busy: number;
}

function machineSince(loadBefore: number, ticksBefore: ReturnType<typeof machineTicks>): MachineLoad {
  const ticksAfter = machineTicks();
  return { loadBefore, loadAfter: loadavg()[0]!, busy: (ticksAfter.busy - ticksBefore.busy) / (ticksAfter.total - ticksBefore.total) };
}

/**
 * The two servers measured in turn, `count` times each, after a round of each not counted (the
 * code's warm-up); each round goes into `rounds`. A round's ratio compares two measures taken a
 * moment apart, so the median ratio shrugs off a burst of other work that lands on a few
 * rounds; short rounds, and many, narrow its interval more than long ones would.
 */
async function inTurn(servers: Record<Which, ChildServer>, next: Record<Which, () => Request>, count: number, rounds: Record<Which, Round[]>): Promise<void> {
  await round(servers.plain, next.plain);
  await round(servers.quota, next.quota);
  for (let i = 0; i < count; i++) {
    // Alternating which goes first too, so neither always runs on the other's heels.
    for (const which of i % 2 ? (['quota', 'plain'] as const) : (['plain', 'quota'] as const)) rounds[which].push(await round(servers[which], next[which]));
  }
}

const spread = (c: Compared) => `${fmt(c.ratio, 3)}x (95% CI ${fmt(c.low, 3)}-${fmt(c.high, 3)})`;
/** Met when the whole interval is within `limit`, missed when the median is past it, undecided (blank) between: more rounds or a quieter machine decide. */
const proven = (c: Compared, limit: number) => (c.high <= limit ? true : c.ratio > limit ? false : undefined);
const machineText = (m: MachineLoad) => `load avg ${fmt(m.loadBefore, 1)}→${fmt(m.loadAfter, 1)} on ${availableParallelism()} cores, ${fmt(m.busy * 100)}% busy`;
const EVERY_QUOTA = { creates_per_minute: 1_000_000, runs_queued: 1_000_000, runs_in_flight: 1_000_000, spend_per_day_usd: 1_000_000 };
const createBody = JSON.stringify({ prompt: 'Benchmark run [simulate hang]', config: { name: 'bench' } });

export default async function quotasBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-quotas-'));
  const configFile = join(dir, 'config.json');
  // Limits no create reaches, so every create pays for every check (the day's spend read included) and none is refused;
  // BENCH_QUOTA_RULE (JSON) measures another rule, say creates_per_minute alone.
  const rule = process.env.BENCH_QUOTA_RULE ? (JSON.parse(process.env.BENCH_QUOTA_RULE) as Record<string, number>) : EVERY_QUOTA;
  writeFileSync(configFile, JSON.stringify({ quotas: { default: rule } }));
  const creates: Record<Which, Round[]> = { plain: [], quota: [] };
  const reads: Record<Which, Round[]> = { plain: [], quota: [] };
  const loadBefore = loadavg()[0]!;
  const ticksBefore = machineTicks();
  const post = () => ({ method: 'POST' as const, path: '/api/v1/agent/run', headers: { ...AUTH, 'content-type': 'application/json' }, body: createBody });
  const get = async (url: string) => {
    const res = await fetch(`${url}/api/v1/agent/runs?limit=1`, { headers: AUTH });
    const id = ((await res.json()) as { runs: { run_id: string }[] }).runs[0]!.run_id;
    return () => ({ method: 'GET' as const, path: `/api/v1/agent/runs/${id}`, headers: AUTH });
  };
  // Two processes running the same code can differ by a few percent of their own (two servers
  // without quotas did, pair after pair): fresh pairs share the rounds, so no one pair decides.
  try {
    for (let pair = 0; pair < PAIRS; pair++) {
      const servers = { plain: await startChild(undefined), quota: await startChild(configFile) };
      try {
        await inTurn(servers, { plain: post, quota: post }, ROUNDS_PER_PAIR, creates);
        await inTurn(servers, { plain: await get(servers.plain.url), quota: await get(servers.quota.url) }, ROUNDS_PER_PAIR, reads);
      } finally {
        await servers.plain.stop();
        await servers.quota.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const machine = machineText(machineSince(loadBefore, ticksBefore));
  return rows({ cpu: compare(creates, 'cpu'), rate: compare(creates, 'rate') }, { cpu: compare(reads, 'cpu'), rate: compare(reads, 'rate') }, machine);
}

/** The table's rows: each figure's CPU row, held to its target, and its throughput row beside it. */
function rows(creates: Record<keyof Round, Compared>, reads: Record<keyof Round, Compared>, machine: string): BenchRow[] {
  const of = `SQLite, bursts of ${BURST}, median of ${PAIRS} × ${ROUNDS_PER_PAIR} rounds`;
  return [
    {
      suite: 'server',
      measure: `POST /agent/run with quotas: server CPU per create (${of})`,
      value: `${fmt(creates.cpu.quota, 1)} µs`,
      baseline: `${fmt(creates.cpu.plain, 1)} µs (no quotas:)`,
      ratio: spread(creates.cpu),
      target: '<= 1.05x',
      met: proven(creates.cpu, 1.05),
    },
    {
      suite: 'server',
      measure: `POST /agent/run with quotas: creates/s (${of}; ${machine})`,
      value: `${fmt(creates.rate.quota)} creates/s`,
      baseline: `${fmt(creates.rate.plain)} creates/s (no quotas:)`,
      ratio: spread(creates.rate),
      target: '>= 0.95x (the CPU row decides)',
    },
    {
      suite: 'server',
      measure: `GET /agent/runs/{id} with quotas: server CPU per request (${of})`,
      value: `${fmt(reads.cpu.quota, 1)} µs`,
      baseline: `${fmt(reads.cpu.plain, 1)} µs (no quotas:)`,
      ratio: spread(reads.cpu),
      target: 'unaffected (<= 1.05x)',
      met: proven(reads.cpu, 1.05),
    },
    {
      suite: 'server',
      measure: `GET /agent/runs/{id} with quotas: req/s (${of}; ${machine})`,
      value: `${fmt(reads.rate.quota)} req/s`,
      baseline: `${fmt(reads.rate.plain)} req/s (no quotas:)`,
      ratio: spread(reads.rate),
      target: 'unaffected (~1x)',
    },
  ];
}
