import type Database from 'better-sqlite3';
import { CLAIM_SQL, EXECUTION_COUNT_SQL, LAST_START_SQL, LIST_SQL_WHERE, PENDING_SQL_WHERE, RELEASE_SQL, UNENDED_SQL, type ConversationStore, type RunMessage } from './conversation-store.js';
import { MESSAGE_COLUMNS as COLUMNS, MESSAGES_TABLE, toMessage, type MessageRow, type MessageWrite } from './message-table.js';
import { sqliteDialect } from '../sql-dialect.js';
import { sqliteOrFail } from '../sqlite-or-fail.js';
import type { SqliteWriteBatch } from '../sqlite-write-batch.js';
import { insertStatement } from '../table-description.js';
import { timeOrderedId } from '../time-ordered-id.js';

const INSERT = insertStatement(MESSAGES_TABLE, sqliteDialect);

/** The conversation in the runs database (the `run_messages` table of migration 2). */
export class SqliteConversationStore implements ConversationStore {
  private readonly insert: Database.Statement;
  private readonly byRun: Database.Statement;
  private readonly pending: Database.Statement;
  private readonly assignOne: Database.Statement;
  private readonly releaseAll: Database.Statement;
  private readonly last: Database.Statement;
  private readonly lastUnended: Database.Statement;
  private readonly lastStarted: Database.Statement;
  private readonly byKey: Database.Statement;
  private readonly begin: (runId: string, claim: string | null, server: string, at: string) => { execution: number; followups: RunMessage[] } | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly writes: SqliteWriteBatch,
  ) {
    this.insert = db.prepare(sqliteOrFail(INSERT.sql));
    this.byKey = db.prepare(`SELECT ${COLUMNS} FROM run_messages WHERE run_id = ? AND idempotency_key = ?`);
    this.byRun = db.prepare(`SELECT ${COLUMNS} FROM run_messages WHERE ${LIST_SQL_WHERE} ORDER BY seq`);
    this.pending = db.prepare(`SELECT ${COLUMNS} FROM run_messages WHERE ${PENDING_SQL_WHERE} ORDER BY seq`);
    const claimOf = db.prepare(CLAIM_SQL);
    this.assignOne = db.prepare('UPDATE run_messages SET execution = ? WHERE run_id = ? AND id = ? AND execution IS NULL');
    this.releaseAll = db.prepare(RELEASE_SQL);
    this.last = db.prepare(EXECUTION_COUNT_SQL);
    this.lastUnended = db.prepare(UNENDED_SQL);
    this.lastStarted = db.prepare(LAST_START_SQL);
    this.begin = db.transaction((runId: string, claim: string | null, server: string, at: string) => {
      const run = claimOf.get(runId) as { state: string; started_at: string | null } | undefined;
      if (run?.state !== 'INPROGRESS' || run.started_at !== claim) return undefined;
      const execution = (this.last.get(runId) as { n: number }).n + 1;
      const followups = (this.pending.all(runId) as MessageRow[]).map(toMessage);
      for (const followup of followups) this.assignOne.run(execution, runId, followup.id);
      this.addStartNow(runId, { execution, server, at });
      return { execution, followups };
    });
  }

  private add<M extends Omit<MessageWrite, 'id' | 'idempotencyKey'>>(message: M, idempotencyKey: string | null = null): M & { id: string } {
    const added = { id: timeOrderedId(), ...message };
    this.insert.run(INSERT.values({ ...added, idempotencyKey }));
    return added;
  }

  async addFollowup(
    runId: string,
    { text, mode, at, idempotencyKey }: { text: string; mode: string | null; at: string; idempotencyKey?: string | undefined },
  ): Promise<{ message: RunMessage; replayed: boolean }> {
    const earlier = idempotencyKey ? (this.byKey.get(runId, idempotencyKey) as MessageRow | undefined) : undefined;
    if (earlier) return { message: toMessage(earlier), replayed: true };
    const message = this.add({ runId, kind: 'followup', text, mode, state: null, execution: null, createdAt: at }, idempotencyKey ?? null);
    return { message, replayed: false };
  }

  async addResult(runId: string, r: { execution: number; state: string; text: string; at: string }): Promise<RunMessage> {
    return this.writes.run(() => this.add({ runId, kind: 'result', text: r.text, mode: null, state: r.state, execution: r.execution, createdAt: r.at }));
  }

  async list(runId: string): Promise<RunMessage[]> {
    return (this.byRun.all(runId) as MessageRow[]).map(toMessage);
  }

  async pendingFollowups(runId: string): Promise<RunMessage[]> {
    return (this.pending.all(runId) as MessageRow[]).map(toMessage);
  }

  async assign(runId: string, ids: readonly string[], execution: number): Promise<void> {
    this.db.transaction(() => {
      for (const id of ids) this.assignOne.run(execution, runId, id);
    })();
  }

  async release(runId: string, execution: number): Promise<void> {
    this.releaseAll.run(runId, execution);
  }

  async beginExecution(runId: string, { claim, server, at }: { claim: string | null; server: string; at: string }) {
    // With the other writes of this turn, in one commit (a transaction within it).
    return this.writes.run(() => this.begin(runId, claim, server, at));
  }

  private addStartNow(runId: string, start: { execution: number; server: string; at: string }): void {
    this.add({ runId, kind: 'start', text: start.server, mode: null, state: null, execution: start.execution, createdAt: start.at });
  }

  async unended(runId: string): Promise<{ execution: number; server: string } | undefined> {
    return this.lastUnended.get(runId, runId) as { execution: number; server: string } | undefined;
  }

  async lastStart(runId: string): Promise<{ execution: number; server: string } | undefined> {
    return this.lastStarted.get(runId) as { execution: number; server: string } | undefined;
  }
}
