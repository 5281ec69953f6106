import type pg from 'pg';
import { CLAIM_SQL, EXECUTION_COUNT_SQL, LAST_START_SQL, LIST_SQL_WHERE, PENDING_SQL_WHERE, RELEASE_SQL, UNENDED_SQL, type ConversationStore, type RunMessage } from './conversation-store.js';
import { MESSAGE_COLUMNS as COLUMNS, MESSAGES_TABLE, toMessage, type MessageRow } from './message-table.js';
import { inTransaction, toNumber } from '../postgres-transaction.js';
import { numbered, postgresDialect } from '../sql-dialect.js';
import { insertStatement } from '../table-description.js';
import { timeOrderedId } from '../time-ordered-id.js';

/** A key used before inserts nothing (a result carries none, so never conflicts). */
const INSERT = insertStatement(
  MESSAGES_TABLE,
  postgresDialect,
  'ON CONFLICT (run_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING',
);

const LIST = numbered(`SELECT ${COLUMNS} FROM run_messages WHERE ${LIST_SQL_WHERE} ORDER BY seq`);
const LAST = numbered(EXECUTION_COUNT_SQL);
const UNENDED = numbered(UNENDED_SQL);
const LAST_START = numbered(LAST_START_SQL);
const RELEASE = numbered(RELEASE_SQL);
const PENDING = numbered(`SELECT ${COLUMNS} FROM run_messages WHERE ${PENDING_SQL_WHERE} ORDER BY seq`);
// Held to the commit: a cancel, a requeue or another server's claim of the run waits for it.
const CLAIM = numbered(`${CLAIM_SQL} FOR UPDATE`);
const ASSIGN = 'UPDATE run_messages SET execution = $1 WHERE run_id = $2 AND id = ANY($3::text[]) AND execution IS NULL';

/** An execution's start as stored: its number, and the server that started it in `text`. */
const startRow = (runId: string, start: { execution: number; server: string; at: string }) => ({
  id: timeOrderedId(),
  runId,
  kind: 'start' as const,
  text: start.server,
  mode: null,
  state: null,
  execution: start.execution,
  createdAt: start.at,
});

/** Follow-ups and results in PostgreSQL (`run_messages`). */
export class PostgresConversationStore implements ConversationStore {
  constructor(private readonly pool: pg.Pool) {}

  async addFollowup(
    runId: string,
    { text, mode, at, idempotencyKey }: { text: string; mode: string | null; at: string; idempotencyKey?: string | undefined },
  ): Promise<{ message: RunMessage; replayed: boolean }> {
    const message: RunMessage = { id: timeOrderedId(), runId, kind: 'followup', text, mode, state: null, execution: null, createdAt: at };
    // A follow-up racing under the same key (on this server or another) is waited for, then answered.
    const inserted = await this.pool.query(INSERT.sql, INSERT.values({ ...message, idempotencyKey }));
    if (inserted.rowCount) return { message, replayed: false };
    const { rows } = await this.pool.query<MessageRow>(`SELECT ${COLUMNS} FROM run_messages WHERE run_id = $1 AND idempotency_key = $2`, [
      runId,
      idempotencyKey,
    ]);
    return { message: toMessage(rows[0]!), replayed: true };
  }

  async addResult(runId: string, r: { execution: number; state: string; text: string; at: string }): Promise<RunMessage> {
    const message: RunMessage = { id: timeOrderedId(), runId, kind: 'result', text: r.text, mode: null, state: r.state, execution: r.execution, createdAt: r.at };
    await this.pool.query(INSERT.sql, INSERT.values(message));
    return message;
  }

  async list(runId: string): Promise<RunMessage[]> {
    const { rows } = await this.pool.query<MessageRow>(LIST, [runId]);
    return rows.map(toMessage);
  }

  async pendingFollowups(runId: string): Promise<RunMessage[]> {
    const { rows } = await this.pool.query<MessageRow>(PENDING, [runId]);
    return rows.map(toMessage);
  }

  async assign(runId: string, ids: readonly string[], execution: number): Promise<void> {
    if (ids.length === 0) return;
    await this.pool.query(ASSIGN, [execution, runId, [...ids]]);
  }

  async release(runId: string, execution: number): Promise<void> {
    await this.pool.query(RELEASE, [runId, execution]);
  }

  async beginExecution(runId: string, { claim, server, at }: { claim: string | null; server: string; at: string }) {
    return inTransaction(this.pool, async (client) => {
      const { rows: runs } = await client.query<{ state: string; started_at: string | null }>(CLAIM, [runId]);
      if (runs[0]?.state !== 'INPROGRESS' || runs[0].started_at !== claim) return undefined;
      const execution = toNumber((await client.query<{ n: string }>(LAST, [runId])).rows[0]!.n) + 1;
      const followups = (await client.query<MessageRow>(PENDING, [runId])).rows.map(toMessage);
      if (followups.length) {
        await client.query(ASSIGN, [execution, runId, followups.map((f) => f.id)]);
      }
      await client.query(INSERT.sql, INSERT.values(startRow(runId, { execution, server, at })));
      return { execution, followups };
    });
  }

  async unended(runId: string): Promise<{ execution: number; server: string } | undefined> {
    const { rows } = await this.pool.query<{ execution: number; server: string }>(UNENDED, [runId, runId]);
    return rows[0];
  }

  async lastStart(runId: string): Promise<{ execution: number; server: string } | undefined> {
    const { rows } = await this.pool.query<{ execution: number; server: string }>(LAST_START, [runId]);
    return rows[0];
  }
}
