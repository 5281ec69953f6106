/**
 * The GitHub Action: the size of its bundle, and the time from starting `node dist/index.js`
 * (as the runner does) to its first request arriving at a loopback server, beside the
 * time a bare `node -e ''` takes to start and exit, measured in the same run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './bench-row.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = join(ROOT, 'dist', 'index.js');
const ROUNDS = 9;
const SIZE_LIMIT = 2 * 1024 * 1024;
const EXTRA_START_LIMIT_MS = 200;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A stand-in for the API that answers the action's create and get, noting when each request arrives. */
async function startStub(onRequest: () => void) {
  const now = new Date().toISOString();
  const run = { run_id: 'r1', task_id: 'r1', title: 't', state: 'QUEUED', prompt: 'p', created_at: now, updated_at: now };
  const server = createServer((req, res) => {
    onRequest();
    req.resume().on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.method === 'POST' ? { run_id: 'r1', task_id: 'r1', state: 'QUEUED' } : run));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function timeToFirstRequest(): Promise<number> {
  let first: number | undefined;
  const stub = await startStub(() => (first ??= performance.now()));
  const dir = mkdtempSync(join(tmpdir(), 'action-bench-'));
  for (const name of ['output', 'state', 'summary']) writeFileSync(join(dir, name), '');
  const env = {
    PATH: process.env.PATH ?? '',
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STATE: join(dir, 'state'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary'),
    GITHUB_REPOSITORY: 'acme/web',
    GITHUB_WORKFLOW: 'Bench',
    INPUT_PROMPT: 'Start quickly',
    'INPUT_API-KEY': 'bench-key',
    'INPUT_BASE-URL': `${stub.url}/api/v1`,
    INPUT_WAIT: 'false',
  };
  const started = performance.now();
  const child = spawn(process.execPath, [BUNDLE], { env, cwd: dir, stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  stub.close();
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0 || first === undefined) throw new Error(`the action did not run cleanly (exit ${code})`);
  return first - started;
}

async function bareStart(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return performance.now() - started;
}

export default async function actionBench(): Promise<BenchRow[]> {
  const size = statSync(BUNDLE).size;
  const action: number[] = [];
  const bare: number[] = [];
  await timeToFirstRequest(); // warm the file cache
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(await bareStart());
    action.push(await timeToFirstRequest());
  }
  const a = median(action);
  const b = median(bare);
  return [
    {
      suite: 'action',
      measure: 'bundle size (dist/index.js, main and post)',
      value: `${(size / 1024 / 1024).toFixed(2)} MB`,
      target: '<= 2 MB',
      met: size <= SIZE_LIMIT,
    },
    {
      suite: 'action',
      measure: `start to first request, median of ${ROUNDS}`,
      value: `${a.toFixed(0)} ms`,
      baseline: `${b.toFixed(0)} ms (node -e '')`,
      ratio: `${(a / b).toFixed(2)}x, +${(a - b).toFixed(0)} ms`,
      target: `<= +${EXTRA_START_LIMIT_MS} ms`,
      met: a - b <= EXTRA_START_LIMIT_MS,
    },
  ];
}
