/**
 * The local server under load, each figure beside a bare `node:http` server measured in
 * the same run:
 * - GET /agent/runs/{runId} requests per second with 100,000 runs stored, against the bare
 *   server answering the same JSON (target ≥ 0.8x), and against a bare server that reads
 *   the run by id from the same file (reported: what the read alone costs);
 * - POST /agent/run creates per second (target ≥ 5,000/s);
 * - p50 and p99 of a list page (limit 100) deep in the cursor chain with 1,000,000 runs,
 *   against a bare server that runs the keyset SELECT itself on the same file and answers
 *   its rows as JSON (targets p50 ≤ 3x, p99 ≤ 2x and ≤ 20 ms).
 * Servers run in child processes so that the load generator has a core of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';
import { BENCH_AUTH as AUTH, BENCH_KEY as KEY, fmt, latencies, percentile, seedSqlite, importBenchServer, throughput, walkListPages } from './server-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDist = pathToFileURL(join(root, 'packages/server/dist/index.js')).href;
const cursorDist = pathToFileURL(join(root, 'packages/server/dist/store/runs/list-cursor.js')).href;
const GET_SECONDS = 5;
const CREATE_SECONDS = 4;
const DEEP_STARTS = [500_000, 700_000, 900_000, 990_000];
const PAGES_PER_START = 250;

type CursorModule = typeof import('../packages/server/dist/store/runs/list-cursor.js');

const TARGET_SCRIPT = `
import { startServer } from ${JSON.stringify(serverDist)};
const s = await startServer({ dataDir: process.env.DATA_DIR, apiKeys: [{ key: ${JSON.stringify(KEY)}, principal: 'bench' }],
  quiet: true, concurrency: 4, simulatedDurationMs: 50 });
process.stdout.write(s.url + '\\n');
process.on('SIGTERM', () => s.close().then(() => process.exit(0)));
`;

// Answers every request with the fixed body for its path, after reading what was sent.
const BARE_SCRIPT = `
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const bodies = JSON.parse(readFileSync(process.env.BODIES, 'utf8'));
const server = createServer({ keepAlive: true }, (req, res) => {
  req.resume();
  req.on('end', () => {
    const body = bodies[req.url.split('?')[0].split('/')[1]] ?? '{}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => process.stdout.write('http://127.0.0.1:' + server.address().port + '\\n'));
process.on('SIGTERM', () => process.exit(0));
`;

// A second GET baseline: the bare server that also reads the run by id from the same SQLite
// file (a prepared statement, raw row) and answers it as JSON: what the read itself costs.
const BARE_GET_SCRIPT = `
import { createServer } from 'node:http';
import Database from ${JSON.stringify(pathToFileURL(join(root, 'node_modules/better-sqlite3/lib/index.js')).href)};
const db = new Database(process.env.DB_FILE, { readonly: true });
const byId = db.prepare('SELECT * FROM runs WHERE id = ?');
const server = createServer({ keepAlive: true }, (req, res) => {
  const body = JSON.stringify(byId.get(req.url.slice(req.url.lastIndexOf('/') + 1)) ?? {});
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => process.stdout.write('http://127.0.0.1:' + server.address().port + '\\n'));
process.on('SIGTERM', () => process.exit(0));
`;

// The list baseline: the keyset SELECT of a page (the cursor decoded as the server does) on
// the same SQLite file, its rows answered as JSON: what a page costs with nothing else.
const BARE_LIST_SCRIPT = `
import { createServer } from 'node:http';
import Database from ${JSON.stringify(pathToFileURL(join(root, 'node_modules/better-sqlite3/lib/index.js')).href)};
const db = new Database(process.env.DB_FILE, { readonly: true });
const page = db.prepare(
  "SELECT * FROM runs WHERE creator_uid = ? AND (updated_at, seq) < (?, ?) ORDER BY updated_at DESC, seq DESC LIMIT 101");
const server = createServer({ keepAlive: true }, (req, res) => {
  const cursor = new URL(req.url, 'http://x').searchParams.get('cursor');
  const [, , value, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  const rows = page.all('bench', value, seq);
  const body = JSON.stringify({ runs: rows.slice(0, 100), has_next_page: rows.length > 100 });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => process.stdout.write('http://127.0.0.1:' + server.address().port + '\\n'));
process.on('SIGTERM', () => process.exit(0));
`;

async function startChild(script: string, env: Record<string, string>): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { origin: chunk.toString().trim(), child };
}

async function stopChild(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

export default async function serverBench(): Promise<BenchRow[]> {
  const server = await importBenchServer();
  const { encodeCursor } = (await import(cursorDist)) as CursorModule;
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-bench-'));
  const bodiesFile = join(dataDir, 'bare-bodies.json');
  const rows: BenchRow[] = [];
  try {
    // 100,000 runs: gets and creates.
    let seedStarted = Date.now();
    seedSqlite(server, dataDir, 0, 100_000);
    process.stderr.write(`  seeded 100,000 runs in ${fmt((Date.now() - seedStarted) / 1000, 1)} s\n`);
    const ids = (() => {
      const store = new server.SqliteRunStore(join(dataDir, 'runs.sqlite'));
      const all = (store.db.prepare('SELECT id FROM runs').pluck().all() as string[]);
      store.close();
      return all;
    })();
    let target = await startChild(TARGET_SCRIPT, { DATA_DIR: dataDir });
    const sample = await fetch(`${target.origin}/api/v1/agent/runs/${ids[0]}`, { headers: AUTH }).then((r) => r.text());
    const createBody = JSON.stringify({ prompt: 'Benchmark run [simulate 50ms]', config: { name: 'bench' } });
    const created = await fetch(`${target.origin}/api/v1/agent/run`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: createBody,
    }).then((r) => r.text());
    writeFileSync(bodiesFile, JSON.stringify({ get: sample, create: created }));
    const bare = await startChild(BARE_SCRIPT, { BODIES: bodiesFile });

    let i = 0;
    const getOne = () => ({ method: 'GET' as const, path: `/api/v1/agent/runs/${ids[(i++ * 7919) % ids.length]}`, headers: AUTH });
    const getBare = () => ({ method: 'GET' as const, path: '/get', headers: AUTH });
    const bareGets = await throughput([bare.origin], GET_SECONDS, getBare);
    const gets = await throughput([target.origin], GET_SECONDS, getOne);
    const bareRead = await startChild(BARE_GET_SCRIPT, { DB_FILE: join(dataDir, 'runs.sqlite') });
    const bareReadGets = await throughput([bareRead.origin], GET_SECONDS, getOne);
    await stopChild(bareRead.child);
    rows.push({
      suite: 'server',
      measure: 'GET /agent/runs/{id}, 100k runs stored',
      value: `${fmt(gets)} req/s`,
      baseline: `${fmt(bareGets)} req/s (bare node:http)`,
      ratio: `${fmt(gets / bareGets, 2)}x`,
      target: '>= 0.8x',
      met: gets / bareGets >= 0.8,
    });
    rows.push({
      suite: 'server',
      measure: 'GET /agent/runs/{id}, against a bare server reading the run from the same file',
      value: `${fmt(gets)} req/s`,
      baseline: `${fmt(bareReadGets)} req/s (bare node:http + SELECT by id) = ${fmt(bareReadGets / bareGets, 2)}x of bare`,
      ratio: `${fmt(gets / bareReadGets, 2)}x`,
      target: 'report',
    });

    const post = (path: string) => () => ({
      method: 'POST' as const,
      path,
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: createBody,
    });
    const bareCreates = await throughput([bare.origin], CREATE_SECONDS, post('/create'));
    const creates = await throughput([target.origin], CREATE_SECONDS, post('/api/v1/agent/run'));
    rows.push({
      suite: 'server',
      measure: 'POST /agent/run (file storage, WAL)',
      value: `${fmt(creates)} creates/s`,
      baseline: `${fmt(bareCreates)} req/s (bare node:http)`,
      ratio: `${fmt(creates / bareCreates, 2)}x`,
      target: '>= 5,000 creates/s',
      met: creates >= 5000,
    });
    await stopChild(target.child);

    // 1,000,000 runs: pages deep in the cursor chain.
    seedStarted = Date.now();
    seedSqlite(server, dataDir, 100_000, 1_000_000 - 100_000);
    process.stderr.write(`  seeded 900,000 more runs in ${fmt((Date.now() - seedStarted) / 1000, 1)} s\n`);
    const store = new server.SqliteRunStore(join(dataDir, 'runs.sqlite'));
    const total = store.db.prepare('SELECT count(*) FROM runs').pluck().get() as number;
    const starts = DEEP_STARTS.map((offset) => {
      const row = store.db
        .prepare('SELECT updated_at, seq FROM runs ORDER BY updated_at DESC, seq DESC LIMIT 1 OFFSET ?')
        .get(offset) as { updated_at: string; seq: number };
      return encodeCursor({ sortBy: 'updated_at', sortOrder: 'desc', value: row.updated_at, seq: row.seq });
    });
    store.close();
    target = await startChild(TARGET_SCRIPT, { DATA_DIR: dataDir });

    const { times, cursors } = await walkListPages(target.origin, starts, PAGES_PER_START);
    await stopChild(target.child);
    await stopChild(bare.child);
    // The same pages, in the same order, from the bare SELECT.
    const bareList = await startChild(BARE_LIST_SCRIPT, { DB_FILE: join(dataDir, 'runs.sqlite') });
    const bareTimes = await latencies(bareList.origin, cursors.map((cursor) => `/list?cursor=${cursor}`));
    await stopChild(bareList.child);
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    const bareP50 = percentile(bareTimes, 50);
    const bareP99 = percentile(bareTimes, 99);
    const label = `list page (limit 100) beyond run 500k of ${fmt(total / 1e6, 1)}M`;
    rows.push({
      suite: 'server',
      measure: `p50 ${label}`,
      value: `${fmt(p50, 2)} ms`,
      baseline: `${fmt(bareP50, 2)} ms (bare node:http + keyset SELECT)`,
      ratio: `${fmt(p50 / bareP50, 2)}x`,
      target: '<= 3x',
      met: p50 / bareP50 <= 3,
    });
    rows.push({
      suite: 'server',
      measure: `p99 ${label}`,
      value: `${fmt(p99, 2)} ms`,
      baseline: `${fmt(bareP99, 2)} ms (bare node:http + keyset SELECT)`,
      ratio: `${fmt(p99 / bareP99, 2)}x`,
      target: '<= 2x and <= 20 ms',
      met: p99 / bareP99 <= 2 && p99 <= 20,
    });
    if (total < 1_000_000) throw new Error(`expected 1,000,000 runs stored, found ${total}`);
    return rows;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
