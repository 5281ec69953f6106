import type pg from 'pg';
import { postgresDialect } from '../sql-dialect.js';
import type { Row } from '../table-description.js';
import { inTransaction } from '../postgres-transaction.js';
import { mailboxStatements } from './mailbox-sql.js';
import type { AgentEventRecord, AgentMessageRecord, InboxQuery, MailboxStore, NewAgentEvent } from './mailbox-store.js';

const SQL = mailboxStatements(postgresDialect);

/**
 * Held by every transaction that adds events, until it commits: a sequence is then taken
 * and committed before the next one is taken, so a poll that saw sequence N never misses an
 * event numbered below N committed later by another server (which a bare identity allows).
 */
export const AGENT_EVENTS_LOCK_KEY = 0x61676576;
const LOCK = 'SELECT pg_advisory_xact_lock($1)';

/** The mailbox in PostgreSQL. */
export class PostgresMailboxStore implements MailboxStore {
  constructor(private readonly pool: pg.Pool) {}

  async send(messages: readonly AgentMessageRecord[], events: readonly NewAgentEvent[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(LOCK, [AGENT_EVENTS_LOCK_KEY]);
      for (const m of messages) await client.query(SQL.insertMessage.sql, SQL.insertMessage.values(m));
      for (const e of events) await client.query(SQL.insertEvent.sql, SQL.insertEvent.values(e));
    });
  }

  async get(messageId: string): Promise<AgentMessageRecord | undefined> {
    const { rows } = await this.pool.query<Row>(SQL.byId, [messageId]);
    return rows[0] ? SQL.readMessage(rows[0]) : undefined;
  }

  async inbox(runId: string, query: InboxQuery): Promise<AgentMessageRecord[]> {
    const { sql, values } = SQL.inbox(query);
    const { rows } = await this.pool.query<Row>(sql, values(runId));
    return rows.map(SQL.readMessage);
  }

  async inboxSize(runId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(SQL.size, [runId]);
    return Number(rows[0]?.n ?? 0);
  }

  async dropOldestRead(runId: string, count: number): Promise<number> {
    return (await this.pool.query(SQL.dropOldestRead, [runId, count])).rowCount ?? 0;
  }

  async stamp(messageId: string, at: string, read: boolean): Promise<void> {
    if (read) await this.pool.query(SQL.read, [at, at, messageId]);
    else await this.pool.query(SQL.delivered, [at, messageId]);
  }

  async addEvent(event: NewAgentEvent): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      await client.query(LOCK, [AGENT_EVENTS_LOCK_KEY]);
      const { rows } = await client.query<{ sequence: string }>(SQL.insertEvent.sql, SQL.insertEvent.values(event));
      return Number(rows[0]!.sequence);
    });
  }

  async events(runIds: readonly string[], since: number, limit: number): Promise<AgentEventRecord[]> {
    if (!runIds.length) return [];
    const { rows } = await this.pool.query<Row>(SQL.events(runIds.length), [...runIds, since, limit]);
    return rows.map(SQL.readEvent);
  }
}
