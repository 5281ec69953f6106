/**
 * What principal quotas cost a create: POST /agent/run per second on a server whose
 * `quotas:` section holds every create (creates per minute, runs queued and in flight, the daily spend)
 * beside the same server without one, in the same run (target: ≤ 5% slower), and GET of a
 * run on both (quotas are not read there: target unaffected). Both servers run in memory
 * in this process, so the figures are for comparing, not absolute.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';
import { BENCH_AUTH as AUTH, BENCH_KEY as KEY, fmt, throughput } from './server-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.BENCH_QUOTA_SECONDS ?? 2);
/** Each measure taken this many times, the two servers in turn, so a busy machine's drift falls on both alike. */
const ROUNDS = Number(process.env.BENCH_QUOTA_ROUNDS ?? 7);

type Which = 'plain' | 'quota';
interface InTurn {
  /** Each server's median rate over the rounds. */
  plain: number;
  quota: number;
  /** The median of each round's quota/plain ratio, and the lowest and highest of them. */
  ratio: number;
  low: number;
  high: number;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * The two servers measured in turn, ROUNDS times each, after a round of each not counted (the
 * code's warm-up, and both servers' queues filling, so the first measured has no quieter
 * machine than the rest). A round's ratio compares two measures taken seconds apart, so the
 * median ratio shrugs off a burst of other work that lands on a few rounds.
 */
async function inTurn(measure: (which: Which) => Promise<number>): Promise<InTurn> {
  await measure('plain');
  await measure('quota');
  const rates: Record<Which, number[]> = { plain: [], quota: [] };
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first too, so neither always runs on the other's heels.
    for (const which of round % 2 ? (['quota', 'plain'] as const) : (['plain', 'quota'] as const)) rates[which].push(await measure(which));
    ratios.push(rates.quota[round]! / rates.plain[round]!);
  }
  return { plain: median(rates.plain), quota: median(rates.quota), ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}
const spread = (t: InTurn) => `${fmt(t.ratio, 2)}x (rounds ${fmt(t.low, 2)}-${fmt(t.high, 2)})`;
const EVERY_QUOTA = { creates_per_minute: 1_000_000, runs_queued: 1_000_000, runs_in_flight: 1_000_000, spend_per_day_usd: 1_000_000 };
const createBody = JSON.stringify({ prompt: 'Benchmark run [simulate 50ms]', config: { name: 'bench' } });

export default async function quotasBench(): Promise<BenchRow[]> {
  const { startServer } = (await import(pathToFileURL(join(root, 'packages/server/dist/index.js')).href)) as typeof import('../packages/server/src/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'bench-quotas-'));
  const configFile = join(dir, 'config.json');
  // Limits no create reaches, so every create pays for every check (the day's spend read included) and none is refused;
  // BENCH_QUOTA_RULE (JSON) measures another rule, say creates_per_minute alone.
  const rule = process.env.BENCH_QUOTA_RULE ? (JSON.parse(process.env.BENCH_QUOTA_RULE) as Record<string, number>) : EVERY_QUOTA;
  writeFileSync(configFile, JSON.stringify({ quotas: { default: rule } }));
  const options = { storage: 'memory' as const, apiKeys: [{ key: KEY, principal: 'bench' }], quiet: true, concurrency: 4, simulatedDurationMs: 50 };
  const plain = await startServer(options);
  const quota = await startServer({ ...options, configFile });
  try {
    const post = () => ({ method: 'POST' as const, path: '/api/v1/agent/run', headers: { ...AUTH, 'content-type': 'application/json' }, body: createBody });
    const urls = { plain: plain.url, quota: quota.url };
    const creates = await inTurn((which) => throughput([urls[which]], SECONDS, post));
    const get = (url: string) => async () => {
      const res = await fetch(`${url}/api/v1/agent/runs?limit=1`, { headers: AUTH });
      const id = ((await res.json()) as { runs: { run_id: string }[] }).runs[0]!.run_id;
      return () => ({ method: 'GET' as const, path: `/api/v1/agent/runs/${id}`, headers: AUTH });
    };
    const gets = { plain: await get(plain.url)(), quota: await get(quota.url)() };
    const reads = await inTurn((which) => throughput([urls[which]], SECONDS, gets[which]));
    return [
      {
        suite: 'server',
        measure: `POST /agent/run with quotas (memory), median of ${ROUNDS} rounds`,
        value: `${fmt(creates.quota)} creates/s`,
        baseline: `${fmt(creates.plain)} creates/s (no quotas:)`,
        ratio: spread(creates),
        target: '>= 0.95x',
        met: creates.ratio >= 0.95,
      },
      {
        suite: 'server',
        measure: `GET /agent/runs/{id} with quotas (memory), median of ${ROUNDS} rounds`,
        value: `${fmt(reads.quota)} req/s`,
        baseline: `${fmt(reads.plain)} req/s (no quotas:)`,
        ratio: spread(reads),
        target: 'unaffected (~1x)',
      },
    ];
  } finally {
    await plain.close();
    await quota.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
