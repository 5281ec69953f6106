/**
 * The dashboard, against the API it renders, measured in the same run:
 * - the runs view (first page, a state filter, a page deep in the cursor chain) of a
 *   SQLite store with 1,000,000 runs (inserted in bulk), p50 and p99 on a keep-alive
 *   connection, against `GET /api/v1/agent/runs` of the same page;
 * - server CPU while 200 dashboards follow the runs view live, against 200 bare event
 *   streams (`GET /api/v1/agent/runs/{id}/events`), under the same stream of new runs:
 *   once with every dashboard on the same view (one principal, as a team sharing a key),
 *   once with 200 principals, each its own view (the case the shared reads do not help).
 * Servers run in child processes, so their CPU is their own. `DASHBOARD_BENCH_RUNS` sets
 * the store's size (1,000,000 by default).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import type { BenchRow } from './bench-row.js';
import { BENCH_KEY, fmt, percentile, seedSqlite, importBenchServer } from './server-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDist = pathToFileURL(join(root, 'packages/server/dist/index.js')).href;
const RUNS = Number(process.env.DASHBOARD_BENCH_RUNS ?? 1_000_000);
const SAMPLES = 400;
const FOLLOWERS = 200;
const FOLLOW_SECONDS = 15;

interface Child {
  origin: string;
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

// A server in a child process that answers its CPU time over IPC.
const script = (options: Record<string, unknown>) => `
import { startServer } from ${JSON.stringify(serverDist)};
const s = await startServer({ port: 0, quiet: true, apiKeys: [{ key: ${JSON.stringify(BENCH_KEY)}, principal: 'bench' }], ...${JSON.stringify(options)} });
process.on('message', () => { const c = process.cpuUsage(); process.send((c.user + c.system) / 1000); });
process.stdout.write(s.url + '\\n');
process.on('SIGTERM', () => s.close().then(() => process.exit(0)));
`;

async function startChild(options: Record<string, unknown>): Promise<Child> {
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', script(options)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return {
    origin: chunk.toString().trim(),
    async cpuMs() {
      const answer = once(child, 'message') as Promise<[number]>;
      child.send('cpu');
      return (await answer)[0];
    },
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function signIn(origin: string, key = BENCH_KEY): Promise<string> {
  const res = await fetch(`${origin}/sign-in`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: key, next: '/' }),
    redirect: 'manual',
  });
  const cookie = /agent_runs_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`sign-in answered ${res.status}`);
  return cookie;
}

/** Latency of each GET on one keep-alive connection, in ms; checks every answer is a 200. */
async function timed(origin: string, paths: string[], headers: Record<string, string>): Promise<{ times: number[]; bytes: number }> {
  const pool = new Pool(origin, { connections: 1 });
  const times: number[] = [];
  let bytes = 0;
  for (const path of paths) {
    const began = process.hrtime.bigint();
    const res = await pool.request({ method: 'GET', path, headers });
    const text = await res.body.text();
    times.push(Number(process.hrtime.bigint() - began) / 1e6);
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode} for ${path}`);
    bytes = Math.max(bytes, Buffer.byteLength(text));
  }
  await pool.close();
  return { times, bytes };
}

async function runsView(): Promise<BenchRow[]> {
  const server = await importBenchServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'dashboard-bench-'));
  try {
    const began = Date.now();
    // The store's schema first (a server that starts and stops), then the runs in bulk.
    const init = await server.startServer({ dataDir, port: 0, quiet: true, apiKeys: [{ key: BENCH_KEY, principal: 'bench' }] });
    await init.close();
    seedSqlite(server, dataDir, 0, RUNS);
    process.stderr.write(`  seeded ${fmt(RUNS)} runs in ${fmt((Date.now() - began) / 1000, 1)} s\n`);
    const child = await startChild({ dataDir });
    const cookie = await signIn(child.origin);
    // A cursor deep in the chain, from the API's own pages.
    let deep = '';
    {
      const pool = new Pool(child.origin, { connections: 1 });
      let cursor: string | undefined;
      for (let i = 0; i < 20; i++) {
        const res = await pool.request({ method: 'GET', path: `/api/v1/agent/runs?sort_by=created_at&sort_order=desc&limit=100${cursor ? `&cursor=${cursor}` : ''}`, headers: { authorization: `Bearer ${BENCH_KEY}` } });
        cursor = ((await res.body.json()) as { page_info: { next_cursor?: string } }).page_info.next_cursor;
      }
      await pool.close();
      deep = cursor!;
    }
    const views = [
      ['first page', ''],
      ['state=FAILED', 'state=FAILED'],
      ['a page 2,000 runs deep', `cursor=${deep}`],
    ] as const;
    const rows: BenchRow[] = [];
    for (const [label, query] of views) {
      const api = `/api/v1/agent/runs?sort_by=created_at&sort_order=desc&limit=25${query ? `&${query}` : ''}`;
      const page = `/${query ? `?${query}` : ''}`;
      // Warm both, then alternate so both see the same machine.
      await timed(child.origin, [page, page], { cookie });
      const dash: number[] = [];
      const bare: number[] = [];
      let bytes = 0;
      for (let i = 0; i < SAMPLES; i += 20) {
        const d = await timed(child.origin, Array(20).fill(page), { cookie });
        dash.push(...d.times);
        bytes = Math.max(bytes, d.bytes);
        bare.push(...(await timed(child.origin, Array(20).fill(api), { authorization: `Bearer ${BENCH_KEY}` })).times);
      }
      const p99 = percentile(dash, 99);
      rows.push({
        suite: 'dashboard',
        measure: `p50 runs view, ${label}, ${fmt(RUNS / 1e6, 1)}M runs`,
        value: `${fmt(percentile(dash, 50), 2)} ms`,
        baseline: `${fmt(percentile(bare, 50), 2)} ms (GET /agent/runs, same page, JSON)`,
        ratio: `${fmt(percentile(dash, 50) / percentile(bare, 50), 2)}x`,
        target: '(for reading the p99)',
      });
      rows.push({
        suite: 'dashboard',
        measure: `p99 runs view, ${label}, ${fmt(RUNS / 1e6, 1)}M runs (${fmt(bytes / 1024, 1)} KB HTML)`,
        value: `${fmt(p99, 2)} ms`,
        baseline: `${fmt(percentile(bare, 99), 2)} ms (GET /agent/runs, same page, JSON)`,
        ratio: `${fmt(p99 / percentile(bare, 99), 2)}x`,
        target: '<= 50 ms',
        met: p99 <= 50,
      });
    }
    await child.stop();
    return rows;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function openStream(origin: string, path: string, headers: Record<string, string>): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode} for ${path}`));
      res.resume();
      resolve(req);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Server CPU over FOLLOW_SECONDS while FOLLOWERS streams are open and a run is created every 100 ms. */
async function followCost(kind: 'dashboard' | 'dashboard-apart' | 'bare'): Promise<number> {
  // Each follower's own key (and principal) where the dashboards are apart.
  const keys = Array.from({ length: FOLLOWERS }, (_, i) => ({ key: `${BENCH_KEY}-viewer-${i}`, principal: `viewer-${i}` }));
  const child = await startChild({ storage: 'memory', simulatedDurationMs: 300, concurrency: 50, apiKeys: [{ key: BENCH_KEY, principal: 'bench' }, ...keys] });
  const auth = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };
  const create = (prompt: string) =>
    fetch(`${child.origin}/api/v1/agent/runs`, { method: 'POST', headers: auth, body: JSON.stringify({ prompt }) }).then(async (r) => (await r.json()) as { run_id: string });
  const hanging = await Promise.all(Array.from({ length: 20 }, (_, i) => create(`Follow me ${i} [simulate hang]`)));
  const cookie = await signIn(child.origin);
  const cookies = kind === 'dashboard-apart' ? await Promise.all(keys.map((k) => signIn(child.origin, k.key))) : [];
  const streams = await Promise.all(
    Array.from({ length: FOLLOWERS }, (_, i) =>
      kind === 'dashboard'
        ? openStream(child.origin, '/live/runs', { cookie })
        : kind === 'dashboard-apart'
          ? openStream(child.origin, '/live/runs', { cookie: cookies[i]! })
          : openStream(child.origin, `/api/v1/agent/runs/${hanging[i % hanging.length]!.run_id}/events`, { authorization: auth.authorization }),
    ),
  );
  await new Promise((r) => setTimeout(r, 500));
  const before = await child.cpuMs();
  const until = Date.now() + FOLLOW_SECONDS * 1000;
  while (Date.now() < until) {
    await create(`Churn [simulate 300ms]`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const used = (await child.cpuMs()) - before;
  for (const s of streams) s.destroy();
  await child.stop();
  return used;
}

export default async function dashboardBench(): Promise<BenchRow[]> {
  const rows = await runsView();
  const bare = await followCost('bare');
  const dash = await followCost('dashboard');
  const apart = await followCost('dashboard-apart');
  for (const [value, how] of [
    [dash, 'one view'],
    [apart, `${FOLLOWERS} principals, a view each`],
  ] as const) {
    rows.push({
      suite: 'dashboard',
      measure: `server CPU, ${FOLLOWERS} dashboards following the runs view ${FOLLOW_SECONDS} s, ${how} (a run created every 100 ms)`,
      value: `${fmt(value)} ms`,
      baseline: `${fmt(bare)} ms (${FOLLOWERS} bare run event streams, same runs created)`,
      ratio: `${fmt(value / bare, 2)}x`,
      target: '<= 2x',
      met: value / bare <= 2,
    });
  }
  return rows;
}
