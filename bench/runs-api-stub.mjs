// A minimal stand-in for the Runs API's read paths, run in its own process so that the
// client under measurement has the benchmark process to itself. Prints its port.
import { createServer } from 'node:http';

const run = (id) => ({
  run_id: id,
  task_id: id,
  title: 'Benchmark run',
  state: 'INPROGRESS',
  prompt: 'Keep the benchmark honest',
  created_at: '2026-11-22T01:00:00.000Z',
  updated_at: '2026-11-22T01:00:05.000Z',
  started_at: '2026-11-22T01:00:01.000Z',
  source: 'API',
  session_id: 's-1',
  session_link: 'http://127.0.0.1/runs/' + id,
  agent_config: { model_id: 'm-1', name: 'bench' },
});
const total = Number(process.argv[2] ?? 100000);
const oneRun = JSON.stringify(run('r-1'));

createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/api/v1/agent/runs') {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const end = Math.min(total, start + limit);
    const runs = [];
    for (let i = start; i < end; i++) runs.push(run(`r-${i}`));
    const more = end < total;
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ runs, page_info: { has_next_page: more, ...(more ? { next_cursor: String(end) } : {}) } }));
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(oneRun);
}).listen(0, '127.0.0.1', function () {
  process.stdout.write(`${this.address().port}\n`);
});
