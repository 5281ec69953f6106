import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { openSqliteStorage } from '../src/store/open-sqlite-storage.js';
import { SqliteCheckpointer } from '../src/store/sqlite-checkpointer.js';
import { openDatabase } from '../src/store/sqlite-driver.js';
import { newRun } from './support/new-run.js';

const walPages = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size / 4096 : 0);

it("checkpoints a server's WAL beside its commits, so the WAL stays about one burst of writes long", async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'agent-runs-checkpoints-')), 'runs.sqlite');
  const storage = openSqliteStorage(file);
  // 8 bursts of 100 runs (about 300 pages of WAL each), with time between them for a checkpoint.
  let longest = 0;
  for (let burst = 0; burst < 8; burst++) {
    await Promise.all(Array.from({ length: 100 }, (_, i) => storage.runs.create(newRun(`run-${burst}-${i}`, { prompt: 'x'.repeat(2000) }))));
    longest = Math.max(longest, walPages(file));
    await sleep(500);
  }
  await storage.close();
  // SQLite's own checkpoint, in the commits, lets the WAL reach 1,000 pages and more; none at
  // all (the server's connection waits for the background ones) would let it reach 2,400.
  expect(longest).toBeGreaterThan(100);
  expect(longest).toBeLessThan(900);
  // Every run is in the file once the storage is closed, and the WAL is gone with its last connection.
  expect(existsSync(`${file}-wal`)).toBe(false);
  const db = openDatabase(file, { readonly: true });
  expect(db.prepare('SELECT count(*) FROM runs').pluck().get()).toBe(800);
  db.close();
});

it('reports a checkpoint thread that could not open its database as ended, with no error thrown in the server', async () => {
  // The thread fails at once (no such file); its error must not reach the process.
  await new Promise<void>((resolve) => new SqliteCheckpointer(join(tmpdir(), 'agent-runs-no-such-dir', 'runs.sqlite'), resolve));
});
