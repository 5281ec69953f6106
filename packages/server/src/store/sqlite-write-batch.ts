import type Database from 'better-sqlite3';

interface PendingWrite {
  write: () => unknown;
  alone: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * Gathers the small writes asked for in one turn of the event loop (creates arriving
 * together, a burst of runs ending, each recording its result and its new state) into one
 * transaction, and answers each once that transaction is committed. Each commit on its own
 * writes every page it touched to the WAL again (the runs table and its indexes, the
 * outbox): a write alone costs about five times one in a batch. A batch that fails is
 * rolled back and its writes made one by one, so one bad write fails only itself.
 */
export class SqliteWriteBatch {
  private pending: PendingWrite[] = [];
  /** Made once: better-sqlite3 builds a wrapper for each transaction function. */
  private readonly writeAll: (batch: PendingWrite[]) => unknown[];

  constructor(db: Database.Database) {
    this.writeAll = db.transaction((batch: PendingWrite[]) => batch.map(({ write }) => write()));
  }

  /**
   * Runs `write` (synchronous SQL) with the others of this turn; settles after the commit.
   * `alone`, if given, is how the write is made outside a batch (with a transaction of its own).
   */
  run<T>(write: () => T, alone: () => T = write): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.pending.push({ write, alone, resolve: resolve as (value: unknown) => void, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  /** Makes the writes waiting for the end of this turn now (before the database closes). */
  flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 1) {
      let results: unknown[] | undefined;
      try {
        results = this.writeAll(batch);
      } catch {
        // Rolled back: made one by one below.
      }
      if (results) {
        batch.forEach(({ resolve }, i) => resolve(results[i]));
        return;
      }
    }
    for (const { alone, resolve, reject } of batch) {
      try {
        resolve(alone());
      } catch (error) {
        reject(error as Error);
      }
    }
  }
}
