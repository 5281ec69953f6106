/**
 * What the server benches share: the load generator, seeding the SQLite store, percentiles
 * and number formatting, a process's CPU time, so that every server figure comes from the same client.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pool } from 'undici';

type ServerModule = typeof import('../packages/server/dist/index.js');
type StoreModule = typeof import('../packages/server/dist/store/runs/sqlite-run-store.js');
/** The server's public entry, with its SQLite store, which that entry leaves out: the benches seed and read the file directly. */
export type BenchServer = ServerModule & Pick<StoreModule, 'SqliteRunStore'>;

const dist = (path: string) => pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', 'packages/server/dist', path)).href;

/** The built server (`npm run build` first), loaded at run time so that a bench reports a missing build itself. */
export async function importBenchServer(): Promise<BenchServer> {
  const [server, store] = await Promise.all([import(dist('index.js')) as Promise<ServerModule>, import(dist('store/runs/sqlite-run-store.js')) as Promise<StoreModule>]);
  return { ...server, SqliteRunStore: store.SqliteRunStore };
}
type NewRun = import('../packages/server/dist/index.js').NewRun;

export const BENCH_KEY = 'bench-key-0123456789';
export const BENCH_AUTH = { authorization: `Bearer ${BENCH_KEY}` };
/** Keep-alive connections and requests in flight of the load generator, over all servers. */
export const CONNECTIONS = 8;
export const IN_FLIGHT = 32;
/** Seeded runs start here, 10 ms apart, and sort below anything made during the bench. */
export const SEED_BASE_MS = Date.parse('2026-01-01T00:00:00Z');

function* seedRuns(server: BenchServer, from: number, count: number): Generator<NewRun> {
  const states = ['SUCCEEDED', 'FAILED', 'SUCCEEDED', 'CANCELLED', 'ERROR'];
  for (let i = from; i < from + count; i++) {
    const ms = SEED_BASE_MS + i * 10;
    const at = new Date(ms).toISOString();
    yield {
      id: server.timeOrderedId(ms),
      title: `Seeded run ${i}`,
      state: states[i % states.length]!,
      prompt: `Fix issue #${i} in the parser and add a regression test for it.`,
      createdAt: at,
      updatedAt: at,
      startedAt: at,
      statusMessage: null,
      source: 'API',
      creator: { type: 'user', uid: 'bench', display_name: 'bench' },
      sessionId: server.timeOrderedId(ms),
      agentConfig: { name: `agent-${i % 50}`, model_id: 'model-a' },
      request: {},
      idempotencyKey: null,
      requestHash: null,
    };
  }
}

/** Inserts runs `from`…`from + count - 1` straight into the SQLite store file, in transactions of 100,000. */
export function seedSqlite(server: BenchServer, dataDir: string, from: number, count: number): void {
  const store = new server.SqliteRunStore(join(dataDir, 'runs.sqlite'));
  // Seeding only: nothing to lose if the machine stops, and a big cache for the index inserts.
  store.db.pragma('synchronous = OFF');
  store.db.pragma('cache_size = -1048576');
  for (let done = 0; done < count; done += 100_000) {
    store.insertMany(seedRuns(server, from + done, Math.min(100_000, count - done)));
  }
  store.close();
}

/** Requests answered by a load, and over how many seconds. */
export interface LoadServed {
  requests: number;
  seconds: number;
}

/**
 * Sends `burst` requests to `origin` at once on as many connections, waits for every answer,
 * and again, for `seconds`. No request waits behind another in the server, so a server sees
 * the same bursts however fast it answers: what it does per request (a turn of its event loop,
 * a batch of writes) is the same for two servers compared, whatever else runs on the machine.
 */
export async function bursts(origin: string, seconds: number, burst: number, next: () => Parameters<Pool['request']>[0]): Promise<LoadServed> {
  const pool = new Pool(origin, { connections: burst, pipelining: 1, keepAliveTimeout: 60_000 });
  const startedAt = Date.now();
  const endAt = startedAt + seconds * 1000;
  let count = 0;
  const one = async () => {
    const res = await pool.request(next());
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode} from ${origin}`);
  };
  while (Date.now() < endAt) {
    await Promise.all(Array.from({ length: burst }, one));
    count += burst;
  }
  const elapsed = (Date.now() - startedAt) / 1000;
  await pool.close();
  return { requests: count, seconds: elapsed };
}

/**
 * Keeps IN_FLIGHT requests going for `seconds` after a 0.5 s warm-up, spread evenly over
 * `origins` (CONNECTIONS connections in all); returns requests per second over all of them.
 */
export async function throughput(origins: string[], seconds: number, next: () => Parameters<Pool['request']>[0]): Promise<number> {
  const pools = origins.map((origin) => new Pool(origin, { connections: Math.max(1, CONNECTIONS / origins.length), keepAliveTimeout: 60_000 }));
  const warmUntil = Date.now() + 500;
  let count = 0;
  let measuring = false;
  let startedAt = 0;
  const endAt = warmUntil + seconds * 1000;
  const worker = async (pool: Pool, origin: string) => {
    while (Date.now() < endAt) {
      const res = await pool.request(next());
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode} from ${origin}`);
      if (!measuring && Date.now() >= warmUntil) {
        measuring = true;
        startedAt = Date.now();
      }
      if (measuring) count++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => worker(pools[i % pools.length]!, origins[i % origins.length]!)));
  const elapsed = (Date.now() - startedAt) / 1000;
  await Promise.all(pools.map((pool) => pool.close()));
  return count / elapsed;
}

/** Latency of each request on one keep-alive connection, in milliseconds. */
export async function latencies(origin: string, paths: string[]): Promise<number[]> {
  const pool = new Pool(origin, { connections: 1 });
  const out: number[] = [];
  for (const path of paths) {
    const started = process.hrtime.bigint();
    const res = await pool.request({ method: 'GET', path, headers: BENCH_AUTH });
    await res.body.text();
    out.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  await pool.close();
  return out;
}

export interface ListWalk {
  /** Each page's latency in ms, in request order. */
  times: number[];
  /** The cursor each page was asked with, in the same order. */
  cursors: string[];
  /** The first page's body. */
  body: string;
}

/**
 * Walks the chain from each start cursor, page after page (limit 100) on one keep-alive
 * connection, as a client iterating would, timing each page.
 */
export async function walkListPages(origin: string, starts: string[], pagesPerStart: number): Promise<ListWalk> {
  const walk: ListWalk = { times: [], cursors: [], body: '' };
  for (const start of starts) {
    let cursor: string | undefined = start;
    const pool = new Pool(origin, { connections: 1 });
    for (let page = 0; page < pagesPerStart && cursor; page++) {
      const began = process.hrtime.bigint();
      const res = await pool.request({ method: 'GET', path: `/api/v1/agent/runs?limit=100&cursor=${cursor}`, headers: BENCH_AUTH });
      const text = await res.body.text();
      walk.times.push(Number(process.hrtime.bigint() - began) / 1e6);
      walk.cursors.push(cursor);
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode} from ${origin} for a list page`);
      const parsed = JSON.parse(text) as { runs: unknown[]; page_info: { next_cursor?: string } };
      if (parsed.runs.length !== 100 && parsed.page_info.next_cursor) throw new Error('short page in the middle of the chain');
      cursor = parsed.page_info.next_cursor;
      walk.body ||= text;
    }
    await pool.close();
  }
  return walk;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** CPU seconds a process has used (Linux), to compare work done whatever else runs on the machine. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The machine's CPU ticks, busy and in all (Linux), to tell whether a measurement had idle cores left. */
export function machineTicks(): { busy: number; total: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    // idle and iowait
    return { busy: total - fields[3]! - fields[4]!, total };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}
