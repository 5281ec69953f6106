import { describe, expect, it } from 'vitest';
import { RunEventStreams } from '../../src/runs/run-event-streams.js';
import { openDatabase } from '../../src/store/sqlite-driver.js';
import { migrateSqlite, SQLITE_MIGRATIONS } from '../../src/store/sqlite-migrations.js';
import { SqliteRunEventStore } from '../../src/store/run-events/sqlite-run-event-store.js';

// The live runs table reads a page again only once told of a change: what it is told.
describe('the event streams tell of runs that changed', () => {
  it('for run events stored here or elsewhere and when signals may have been missed, not for output', () => {
    const db = openDatabase(':memory:');
    migrateSqlite(db, SQLITE_MIGRATIONS);
    const streams = new RunEventStreams(new SqliteRunEventStore(db), () => {});
    const told: (string | undefined)[] = [];
    const runs: (string | undefined)[] = [];
    const stop = streams.onRunChange((runId, run) => {
      told.push(runId);
      runs.push(run);
    });
    streams.deliver([{ runId: 'a', id: 1, kind: 'output', data: '{"text":"hi"}' }]);
    expect(told).toEqual([]);
    streams.deliver([
      { runId: 'a', id: 2, kind: 'run', data: '{}' },
      { runId: 'b', id: 1, kind: 'run', data: '{}' },
      { runId: 'a', id: 3, kind: 'run', data: '{"creator":{"uid":"alice"}}' },
    ]);
    expect(told).toEqual(['a', 'b']);
    // Each with the run as its latest event holds it: the live table reads only the pages of its owner.
    expect(runs).toEqual(['{"creator":{"uid":"alice"}}', '{}']);
    streams.storedElsewhere('c');
    streams.wakeAll();
    expect(told).toEqual(['a', 'b', 'c', undefined]);
    stop();
    streams.deliver([{ runId: 'd', id: 1, kind: 'run', data: '{}' }]);
    expect(told).toHaveLength(4);
    db.close();
  });
});
