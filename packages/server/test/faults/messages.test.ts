import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/store/sqlite-driver.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@agent-runs/server';
import { rawRequest } from '../support/raw-http.js';

const BIN = fileURLToPath(new URL('../../bin/agent-runs-server.js', import.meta.url));

describe('a read-only database', () => {
  it('is named, with what to do, not a stack trace', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-ro-'));
    const file = join(dataDir, 'runs.sqlite');
    const db = openDatabase(file);
    db.exec('CREATE TABLE placeholder (x)');
    db.close();
    chmodSync(file, 0o444);
        // Root writes any file whatever its mode: run the server without root's capabilities then.
    // Still uid 0, so it reads the clone wherever it is (a clone in root's private home included).
    const command = process.getuid?.() === 0
      ? ['setpriv', '--bounding-set', '-all', '--inh-caps', '-all', '--', process.execPath]
      : [process.execPath];
    const result = spawnSync(command[0]!, [...command.slice(1), BIN, '--data-dir', dataDir, '--port', '0'], { encoding: 'utf8', timeout: 15_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`The database ${file} cannot be opened for writing`);
    expect(result.stderr).toMatch(/readonly|read-only/i);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a list parameter given twice', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ storage: 'memory', quiet: true });
  });
  afterAll(() => server.close());

  it('says it was given twice, naming it', async () => {
    const res = await rawRequest(`${server.baseURL}/agent/runs?limit=1&limit=2`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(res.status).toBe(400);
    expect(res.json.detail).toBe('limit: given 2 times; pass it once.');
  });

  it('still takes state repeated, as several states', async () => {
    const res = await rawRequest(`${server.baseURL}/agent/runs?state=QUEUED&state=FAILED`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(res.status).toBe(200);
  });
});
