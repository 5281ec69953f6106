/**
 * Fair turns between principals, on the SQLite store as a server opens it, each figure beside
 * the same store with every run at turn 0 (its read of the next turn and its trigger left
 * out: a claim then orders by age, as before fair turns), in the same run:
 * - creating runs of 50 principals (each create reads the principal's next turn);
 * - claiming them all one by one, 10,000 queued (the claim's order walks the turn index).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';
import { newRun } from '../packages/server/test/support/new-run.js';
import { fmt } from './server-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const storeDist = (file: string) => pathToFileURL(join(root, 'packages/server/dist/store', file)).href;
const RUNS = Number(process.env.FAIR_TURNS_BENCH_RUNS ?? 10_000);
const PRINCIPALS = 50;
const AT = '2026-01-01T00:00:00.000Z';

type Storage = Awaited<ReturnType<typeof open>>;

async function open(file: string, turns: boolean) {
  const { openSqliteStorage } = (await import(storeDist('open-sqlite-storage.js'))) as typeof import('../packages/server/src/store/open-sqlite-storage.js');
  const storage = openSqliteStorage(file) as ReturnType<typeof openSqliteStorage> & { runs: { db: import('better-sqlite3').Database } };
  if (!turns) {
    // Every run takes turn 0: the claim's order is the age alone, as before fair turns.
    storage.runs.db.exec('DROP TRIGGER runs_turn_on_requeue');
    (storage.runs as unknown as { nextTurn: { get(): { turn: number } } }).nextTurn = { get: () => ({ turn: 0 }) };
  }
  return storage;
}

/** Run i, of one of PRINCIPALS principals. */
const runOf = (i: number) => newRun(`run-${i}`, { creator: { uid: `principal-${i % PRINCIPALS}` } });

/** ms to create RUNS runs, then ms to claim them all. */
async function measure(storage: Storage): Promise<{ create: number; claim: number }> {
  let started = performance.now();
  for (let i = 0; i < RUNS; i++) await storage.runs.create(runOf(i));
  const create = performance.now() - started;
  started = performance.now();
  let claimed = 0;
  while (await storage.runs.claimNext('bench', AT, 60_000)) claimed++;
  if (claimed !== RUNS) throw new Error(`claimed ${claimed} of ${RUNS}`);
  return { create, claim: performance.now() - started };
}

export default async function fairTurnsBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-bench-turns-'));
  try {
    const fair = await open(join(dir, 'fair.db'), true);
    const aged = await open(join(dir, 'aged.db'), false);
    // Warm both (statements prepared, pages cached), then measure each twice, alternating.
    const results = { fair: [] as { create: number; claim: number }[], aged: [] as { create: number; claim: number }[] };
    for (let round = 0; round < 2; round++) {
      results.aged.push(await measure(aged));
      results.fair.push(await measure(fair));
      for (const s of [fair, aged]) s.runs.db.exec('DELETE FROM runs');
    }
    await fair.close?.();
    await aged.close?.();
    const best = (list: { create: number; claim: number }[], key: 'create' | 'claim') => Math.min(...list.map((r) => r[key]));
    const row = (key: 'create' | 'claim', what: string): BenchRow => {
      const value = best(results.fair, key);
      const baseline = best(results.aged, key);
      return {
        suite: 'fair turns',
        measure: `${what} (${RUNS.toLocaleString('en-US')} runs of ${PRINCIPALS} principals, SQLite store)`,
        value: `${fmt((value / RUNS) * 1000, 1)} µs per run`,
        baseline: `${fmt((baseline / RUNS) * 1000, 1)} µs without turns (all at turn 0: oldest first)`,
        ratio: `${fmt(value / baseline, 2)}x`,
        target: 'report',
      };
    };
    return [row('create', 'create'), row('claim', 'claim, one at a time, all queued')];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
