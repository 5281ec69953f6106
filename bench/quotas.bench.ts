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
const SECONDS = Number(process.env.BENCH_QUOTA_SECONDS ?? 3);
/** Each measure taken this many times, the two servers in turn, so a busy machine's drift falls on both alike. */
const ROUNDS = Number(process.env.BENCH_QUOTA_ROUNDS ?? 3);

/** The two servers measured in turn, ROUNDS times each: the sum of each one's rates over the rounds. */
async function inTurn(measure: (which: 'plain' | 'quota') => Promise<number>): Promise<{ plain: number; quota: number }> {
  const sums = { plain: 0, quota: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first too, so neither always runs on the other's heels.
    for (const which of round % 2 ? (['quota', 'plain'] as const) : (['plain', 'quota'] as const)) sums[which] += await measure(which);
  }
  return { plain: sums.plain / ROUNDS, quota: sums.quota / ROUNDS };
}
const createBody = JSON.stringify({ prompt: 'Benchmark run [simulate 50ms]', config: { name: 'bench' } });

export default async function quotasBench(): Promise<BenchRow[]> {
  const { startServer } = (await import(pathToFileURL(join(root, 'packages/server/dist/index.js')).href)) as typeof import('../packages/server/src/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'bench-quotas-'));
  const configFile = join(dir, 'config.json');
  // Limits no create reaches, so every create pays for every check (the day's spend read included) and none is refused.
  writeFileSync(configFile, JSON.stringify({ quotas: { default: { creates_per_minute: 1_000_000, runs_queued: 1_000_000, runs_in_flight: 1_000_000, spend_per_day_usd: 1_000_000 } } }));
  const options = { storage: 'memory' as const, apiKeys: [{ key: KEY, principal: 'bench' }], quiet: true, concurrency: 4, simulatedDurationMs: 50 };
  const plain = await startServer(options);
  const quota = await startServer({ ...options, configFile });
  try {
    const post = () => ({ method: 'POST' as const, path: '/api/v1/agent/run', headers: { ...AUTH, 'content-type': 'application/json' }, body: createBody });
    const urls = { plain: plain.url, quota: quota.url };
    const { plain: plainCreates, quota: quotaCreates } = await inTurn((which) => throughput([urls[which]], SECONDS, post));
    const get = (url: string) => async () => {
      const res = await fetch(`${url}/api/v1/agent/runs?limit=1`, { headers: AUTH });
      const id = ((await res.json()) as { runs: { run_id: string }[] }).runs[0]!.run_id;
      return () => ({ method: 'GET' as const, path: `/api/v1/agent/runs/${id}`, headers: AUTH });
    };
    const gets = { plain: await get(plain.url)(), quota: await get(quota.url)() };
    const { plain: plainGets, quota: quotaGets } = await inTurn((which) => throughput([urls[which]], SECONDS, gets[which]));
    const createRatio = quotaCreates / plainCreates;
    return [
      {
        suite: 'server',
        measure: 'POST /agent/run with quotas (memory)',
        value: `${fmt(quotaCreates)} creates/s`,
        baseline: `${fmt(plainCreates)} creates/s (no quotas:)`,
        ratio: `${fmt(createRatio, 2)}x`,
        target: '>= 0.95x',
        met: createRatio >= 0.95,
      },
      {
        suite: 'server',
        measure: 'GET /agent/runs/{id} with quotas (memory)',
        value: `${fmt(quotaGets)} req/s`,
        baseline: `${fmt(plainGets)} req/s (no quotas:)`,
        ratio: `${fmt(quotaGets / plainGets, 2)}x`,
        target: 'unaffected (~1x)',
      },
    ];
  } finally {
    await plain.close();
    await quota.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
