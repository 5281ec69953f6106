import type { SqlDialect } from '../sql-dialect.js';
import { insertStatement, rowReader, selectList, type WriteStatement } from '../table-description.js';
import type { AgentEventRecord, AgentMessageRecord, InboxQuery, NewAgentEvent } from './mailbox-store.js';
import { AGENT_EVENTS_TABLE, AGENT_MESSAGES_TABLE } from './mailbox-tables.js';

const MESSAGE_COLUMNS = selectList(AGENT_MESSAGES_TABLE);
const EVENT_COLUMNS = selectList(AGENT_EVENTS_TABLE);

/** The mailbox's statements in one dialect: both stores run these and no other. */
export interface MailboxStatements {
  insertMessage: WriteStatement<AgentMessageRecord>;
  insertEvent: WriteStatement<NewAgentEvent>;
  byId: string;
  size: string;
  dropOldestRead: string;
  delivered: string;
  read: string;
  inbox(query: InboxQuery): { sql: string; values: (runId: string) => unknown[] };
  events(runCount: number): string;
  readMessage: ReturnType<typeof rowReader<AgentMessageRecord, AgentMessageRecord>>;
  readEvent: ReturnType<typeof rowReader<NewAgentEvent, AgentEventRecord>>;
}

export function mailboxStatements(dialect: SqlDialect): MailboxStatements {
  const p = (n: number) => dialect.placeholder(n);
  return {
    insertMessage: insertStatement(AGENT_MESSAGES_TABLE, dialect),
    insertEvent: insertStatement(AGENT_EVENTS_TABLE, dialect, 'RETURNING sequence'),
    byId: `SELECT ${MESSAGE_COLUMNS} FROM agent_messages WHERE id = ${p(1)}`,
    size: `SELECT count(*) AS n FROM agent_messages WHERE recipient_run_id = ${p(1)}`,
    dropOldestRead: `DELETE FROM agent_messages WHERE seq IN (SELECT seq FROM agent_messages WHERE recipient_run_id = ${p(1)} AND read_at IS NOT NULL ORDER BY seq LIMIT ${p(2)})`,
    delivered: `UPDATE agent_messages SET delivered_at = ${p(1)} WHERE id = ${p(2)} AND delivered_at IS NULL`,
    // A message read was delivered, too.
    read: `UPDATE agent_messages SET read_at = COALESCE(read_at, ${p(1)}), delivered_at = COALESCE(delivered_at, ${p(2)}) WHERE id = ${p(3)}`,
    inbox: ({ unread, since, limit }) => {
      let n = 1;
      const terms = [`recipient_run_id = ${p(n++)}`];
      if (unread) terms.push('read_at IS NULL');
      if (since !== undefined) terms.push(`sent_at >= ${p(n++)}`);
      const sql = `SELECT ${MESSAGE_COLUMNS} FROM agent_messages WHERE ${terms.join(' AND ')} ORDER BY seq LIMIT ${p(n)}`;
      return { sql, values: (runId) => [runId, ...(since !== undefined ? [since] : []), limit] };
    },
    events: (runCount) =>
      `SELECT ${EVENT_COLUMNS} FROM agent_events WHERE run_id IN (${Array.from({ length: runCount }, (_, i) => p(i + 1)).join(', ')}) AND sequence > ${p(runCount + 1)} ORDER BY sequence LIMIT ${p(runCount + 2)}`,
    readMessage: rowReader(AGENT_MESSAGES_TABLE),
    readEvent: rowReader(AGENT_EVENTS_TABLE),
  };
}
