import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { rawRequest } from '../support/raw-http.js';
import { nodeAgentCommand } from '../support/node-agent.js';
import { openDatabase } from '../../src/store/sqlite-driver.js';

// A real full file system: a small tmpfs holding the data directory (mounting needs root).
const canMount = process.platform === 'linux' && process.getuid?.() === 0;
const KEY = 'fault-suite-key-1234';
const auth = { authorization: `Bearer ${KEY}` };
let mountPoint: string;
let proc: ServerProcess;

/** Writes zeros until the file system refuses (ENOSPC); returns the filler's path. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  // The last partial block: fill to the final byte.
  const tail = openSync(file, 'a');
  try {
    for (;;) writeSync(tail, Buffer.alloc(512));
  } catch {
    // Full.
  } finally {
    closeSync(tail);
  }
  return file;
}

/** Checkpoints the database's WAL into it and truncates the WAL to no bytes; false while a reader or writer holds it. */
function truncateWal(file: string): boolean {
  const db = openDatabase(file);
  try {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number }[];
    return result!.busy === 0 && result!.log === 0;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  if (!canMount) return;
  mountPoint = mkdtempSync(join(tmpdir(), 'agent-runs-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]);
  const dataDir = join(mountPoint, 'data');
  mkdirSync(dataDir);
  proc = await startServerProcess(['--data-dir', dataDir, '--api-key', KEY, '--concurrency', '1']);
});
afterAll(async () => {
  if (!canMount) return;
  if (proc.child.exitCode === null) {
    proc.child.kill('SIGTERM');
    await proc.exited;
  }
  execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

const create = (prompt: string) =>
  rawRequest(`${proc.baseURL}/agent/run`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ prompt }) });
const state = async (id: string) => (await rawRequest(`${proc.baseURL}/agent/runs/${id}`, { headers: auth })).json.state as string;

describe.runIf(canMount)('a full disk', () => {
  it('answers every request, leaves no run stuck, and the queue recovers once space is freed', async () => {
    const running = (await create('Long enough to end while the disk is full [simulate 3s]')).json.run_id as string;
    const queued = (await create('Waits for the slot [simulate 50ms]')).json.run_id as string;
    await expect.poll(() => state(running), { timeout: 10_000 }).toBe('INPROGRESS');
    expect(await state(queued)).toBe('QUEUED');

    const health = () => rawRequest(`${proc.baseURL.replace(/\/api\/v1$/, '')}/healthz`);
    expect((await health()).status).toBe(200);
    // After a checkpoint SQLite writes its WAL's pages again, which takes no new space: so that the
    // run's end must grow the WAL (and fail), the WAL is emptied to no bytes before the disk fills.
    await expect.poll(() => truncateWal(join(mountPoint, 'data', 'runs.sqlite')), { timeout: 10_000 }).toBe(true);
    const filler = fill(mountPoint);
    // The health check says the disk is full (reads still work there; writes do not).
    const full = await health();
    expect(full.status).toBe(503);
    expect(full.json.detail).toBe(`The disk holding ${join(mountPoint, 'data')} is full (0 bytes free, under 1048576); runs' state and output cannot be written until space is freed there.`);
    expect(full.headers['retry-after']).toBe('30');
    // The running run ends while its end cannot be written: the server keeps trying.
    await expect.poll(() => proc.stderr(), { timeout: 10_000 }).toMatch(/Could not record the end of run/);
    expect(await state(running)).toBe('INPROGRESS');

    const refused = await create('Arrives while the disk is full');
    expect(refused.status).toBe(500);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    const traceId = refused.json.trace_id as string;
    expect(traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(refused.json.retryable).toBe(true);
    // Logged once, with the cause and the same trace id.
    await expect.poll(() => proc.stderr().split(traceId).length - 1, { timeout: 5000 }).toBe(1);
    expect(proc.stderr()).toMatch(new RegExp(`trace id ${traceId}\\): .*(full|SQLITE_FULL)`, 'i'));

    rmSync(filler);
    expect((await health()).status).toBe(200);
    await expect.poll(() => state(running), { timeout: 20_000, interval: 200 }).toBe('SUCCEEDED');
    await expect.poll(() => state(queued), { timeout: 20_000, interval: 200 }).toBe('SUCCEEDED');
    expect((await create('After the disk was freed [simulate 10ms]')).status).toBe(200);
  });
});

describe.runIf(canMount)('output printed while the disk is full', () => {
  const LINES = 200;
  const LINE = 'x'.repeat(999) + '\n';
  let mount: string;
  let server: ServerProcess;
  // The agent notes how far it got outside the full disk, writable by the agent user.
  const notes = mkdtempSync(join(tmpdir(), 'agent-runs-full-notes-'));
  chmodSync(notes, 0o777);
  const progress = join(notes, 'progress.txt');
  const printed = () => (existsSync(progress) ? Number(readFileSync(progress, 'utf8') || 0) : 0);
  beforeAll(async () => {
    mount = mkdtempSync(join(tmpdir(), 'agent-runs-full-output-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mount]);
    mkdirSync(join(mount, 'data'));
    // 1,000-byte lines, one every 20 ms (4 s in all).
    const agent = `
      const fs = require('node:fs');
      let n = 0;
      const timer = setInterval(() => {
        process.stdout.write(${JSON.stringify(LINE)});
        fs.writeFileSync(${JSON.stringify(progress)}, String(++n));
        if (n === ${LINES}) clearInterval(timer);
      }, 20);`;
    server = await startServerProcess(['--data-dir', join(mount, 'data'), '--work-dir', mkdtempSync(join(tmpdir(), 'agent-runs-full-work-')), '--api-key', KEY,
      '--command', nodeAgentCommand(agent), '--sandbox', 'off']);
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });

  it('notes in the run\'s output how many bytes could not be stored, and keeps the rest', { timeout: 120_000 }, async () => {
    const created = await rawRequest(`${server.baseURL}/agent/runs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"prompt":"print"}' });
    const runId = created.json.run_id as string;
    await expect.poll(printed, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(20);
    const filler = fill(mount);
    const filledAt = printed();
    await expect.poll(() => server.stderr(), { timeout: 10_000 }).toMatch(/Could not record \d+ run event\(s\)/);
    // Printing goes on while the disk is full, then space is freed.
    await expect.poll(printed, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(Math.min(LINES, filledAt + 50));
    rmSync(filler);
    await expect.poll(async () => (await rawRequest(`${server.baseURL}/agent/runs/${runId}`, { headers: auth })).json.state, { timeout: 30_000, interval: 200 }).toBe('SUCCEEDED');

    let text = '';
    for (let since = 0, more = true; more; ) {
      const page = (await rawRequest(`${server.baseURL}/agent/runs/${runId}/output?since=${since}`, { headers: auth })).json;
      text += (page.chunks as { text: string }[]).map((c) => c.text).join('');
      since = page.next_since;
      more = page.has_more;
    }
    const notesFound = [...text.matchAll(/\[agent-runs\] (\d+) bytes of output could not be stored and were dropped here \((.*)\)\.\n/g)];
    expect(notesFound.length).toBeGreaterThanOrEqual(1);
    expect(notesFound[0]![2]).toMatch(/full/i);
    const dropped = notesFound.reduce((sum, m) => sum + Number(m[1]), 0);
    const kept = text.replace(/\[agent-runs\][^\n]*\n/g, '');
    expect(kept).toMatch(/^[x\n]*$/);
    expect(dropped).toBeGreaterThan(0);
    // Every byte printed is either kept or counted in a note.
    expect(kept.length + dropped).toBe(LINES * LINE.length);
  });
});
