import type Database from 'better-sqlite3';
import { sqliteDialect } from '../sql-dialect.js';
import type { Row } from '../table-description.js';
import { mailboxStatements } from './mailbox-sql.js';
import type { AgentEventRecord, AgentMessageRecord, InboxQuery, MailboxStore, NewAgentEvent } from './mailbox-store.js';

const SQL = mailboxStatements(sqliteDialect);

/** The mailbox in the runs database. */
export class SqliteMailboxStore implements MailboxStore {
  constructor(private readonly db: Database.Database) {}

  async send(messages: readonly AgentMessageRecord[], events: readonly NewAgentEvent[]): Promise<void> {
    const insertMessage = this.db.prepare(SQL.insertMessage.sql);
    const insertEvent = this.db.prepare(SQL.insertEvent.sql);
    this.db.transaction(() => {
      for (const m of messages) insertMessage.run(...SQL.insertMessage.values(m));
      for (const e of events) insertEvent.run(...SQL.insertEvent.values(e));
    })();
  }

  async get(messageId: string): Promise<AgentMessageRecord | undefined> {
    const row = this.db.prepare(SQL.byId).get(messageId) as Row | undefined;
    return row ? SQL.readMessage(row) : undefined;
  }

  async inbox(runId: string, query: InboxQuery): Promise<AgentMessageRecord[]> {
    const { sql, values } = SQL.inbox(query);
    return (this.db.prepare(sql).all(...values(runId)) as Row[]).map(SQL.readMessage);
  }

  async inboxSize(runId: string): Promise<number> {
    return Number((this.db.prepare(SQL.size).get(runId) as { n: number }).n);
  }

  async dropOldestRead(runId: string, count: number): Promise<number> {
    return this.db.prepare(SQL.dropOldestRead).run(runId, count).changes;
  }

  async stamp(messageId: string, at: string, read: boolean): Promise<void> {
    if (read) this.db.prepare(SQL.read).run(at, at, messageId);
    else this.db.prepare(SQL.delivered).run(at, messageId);
  }

  async addEvent(event: NewAgentEvent): Promise<number> {
    const row = this.db.prepare(SQL.insertEvent.sql).get(...SQL.insertEvent.values(event)) as { sequence: number };
    return Number(row.sequence);
  }

  async events(runIds: readonly string[], since: number, limit: number): Promise<AgentEventRecord[]> {
    if (!runIds.length) return [];
    return (this.db.prepare(SQL.events(runIds.length)).all(...runIds, since, limit) as Row[]).map(SQL.readEvent);
  }
}
