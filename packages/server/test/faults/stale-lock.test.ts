import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@agent-runs/server';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { rawRequest } from '../support/raw-http.js';

const BIN = fileURLToPath(new URL('../../bin/agent-runs-server.js', import.meta.url));
let unrelated: ChildProcess;
let procs: ServerProcess[] = [];
const later: ChildProcess[] = [];
beforeAll(() => {
  unrelated = spawn('sleep', ['60'], { stdio: 'ignore' });
});
afterAll(() => {
  for (const child of [unrelated, ...later]) child.kill('SIGKILL');
});
afterEach(async () => {
  for (const p of procs) {
    if (p.child.exitCode === null) {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  }
  procs = [];
});

describe.runIf(process.platform === 'linux')('a stale pid file naming an unrelated live process', () => {
  it('is taken over when the process only reuses the pid of a killed server', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-data-'));
    const first = await startServerProcess(['--data-dir', dataDir]);
    procs.push(first);
    const pidFile = join(dataDir, 'server.pid');
    const [, startTime] = readFileSync(pidFile, 'utf8').trim().split(' ');
    expect(startTime).toMatch(/^\d+$/);
    first.child.kill('SIGKILL');
    await first.exited;
    // As after a reboot: the dead server's pid now belongs to some other process, one
    // started after it (a process started in the same clock tick would look the same).
    const reuser = spawn('sleep', ['60'], { stdio: 'ignore' });
    later.push(reuser);
    writeFileSync(pidFile, `${reuser.pid} ${startTime}\n`);
    const second = await startServerProcess(['--data-dir', dataDir]);
    procs.push(second);
    expect((await rawRequest(`${second.baseURL.replace(/\/api\/v1$/, '')}/healthz`)).status).toBe(200);
    expect(readFileSync(pidFile, 'utf8')).toMatch(new RegExp(`^${second.child.pid} `));
  });

  it('without a start time to check, stops start-up at once, naming the file to delete', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-data-'));
    const pidFile = join(dataDir, 'server.pid');
    writeFileSync(pidFile, `${unrelated.pid}\n`);
    const result = spawnSync(process.execPath, [BIN, '--data-dir', dataDir, '--port', '0'], { encoding: 'utf8', timeout: 15_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`process ${unrelated.pid}, named in ${pidFile}`);
    expect(result.stderr).toContain(`${pidFile} is stale: delete it`);
  });
});

describe('?q=%00', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ storage: 'memory', quiet: true, simulatedDurationMs: 10 });
    await rawRequest(`${server.baseURL}/agent/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: '{"prompt":"an ordinary run"}',
    });
  });
  afterAll(() => server.close());

  it('is a 400 naming q, not a match of every run', async () => {
    const res = await rawRequest(`${server.baseURL}/agent/runs?q=%00`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(res.status).toBe(400);
    expect(res.json.detail).toContain('q: must not contain control characters');
  });
});
