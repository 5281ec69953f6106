import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../../test/support/postgres.js';
import { openPostgresStorage } from '../../src/store/open-postgres-storage.js';
import { openSqliteStorage } from '../../src/store/open-sqlite-storage.js';
import type { Storage } from '../../src/store/storage.js';
import { newSchedule, time } from '../support/new-schedule.js';

const schedule = newSchedule('s1');
/** Long enough that a loaded machine does not outlast it between two claims. */
const LEASE_MS = 1000;
const pastTheLease = () => new Promise((resolve) => setTimeout(resolve, LEASE_MS + 500));

let database: TestDatabase | undefined;
const opened: Storage[] = [];
const directory = mkdtempSync(join(tmpdir(), 'firing-leases-'));
beforeAll(async () => {
  if (postgresAdminUrl) database = await createTestDatabase();
}, 30_000);
afterAll(async () => {
  for (const storage of opened.splice(0)) await storage.close();
  await database?.drop();
  rmSync(directory, { recursive: true, force: true });
});

describe('a schedule firing whose server died', () => {
  it.runIf(postgresAdminUrl !== undefined)('is taken over by another server of the database once its lease ran out, and not before', async () => {
    const open = (serverId: string) => openPostgresStorage(database!.url, { log: () => undefined, serverId }).then((s) => (opened.push(s), s));
    const [a, b] = [await open('a'), await open('b')];
    await a.schedules.insert(schedule);
    expect(await a.schedules.claimFiring('s1', time(30), time(31), LEASE_MS)).toEqual({ claimed: true });
    // a dies here, without finishing the firing.
    expect(await b.schedules.claimFiring('s1', time(30), time(31), LEASE_MS)).toEqual({ claimed: false });
    await pastTheLease();
    expect(await b.schedules.claimFiring('s1', time(30), time(32), LEASE_MS)).toEqual({ claimed: true });
    expect(await a.schedules.claimFiring('s1', time(30), time(32), LEASE_MS)).toEqual({ claimed: false });
    await b.schedules.finishFiring('s1', time(30), { runId: 'r1', error: null }, { lastRan: time(32), nextRun: time(35) });
    await pastTheLease();
    expect(await a.schedules.claimFiring('s1', time(30), time(33), LEASE_MS)).toEqual({ claimed: false, earlier: { runId: 'r1', error: null } });
  });

  it('is taken over by the server started again on its SQLite file', async () => {
    const file = join(directory, 'runs.db');
    const first = openSqliteStorage(file);
    await first.schedules.insert(schedule);
    expect(await first.schedules.claimFiring('s1', time(30), time(31))).toEqual({ claimed: true });
    await first.close();
    const again = openSqliteStorage(file);
    opened.push(again);
    expect(await again.schedules.claimFiring('s1', time(30), time(32))).toEqual({ claimed: true });
    expect(await again.schedules.claimFiring('s1', time(30), time(33))).toEqual({ claimed: false });
  });
});
