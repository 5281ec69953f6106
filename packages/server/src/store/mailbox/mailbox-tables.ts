import type { TableDescription } from '../table-description.js';
import type { AgentEventRecord, AgentMessageRecord, NewAgentEvent } from './mailbox-store.js';

/** The `agent_messages` table: one row per recipient of a run-to-run message. */
export const AGENT_MESSAGES_TABLE: TableDescription<AgentMessageRecord, AgentMessageRecord> = {
  name: 'agent_messages',
  columns: [
    { name: 'seq', type: 'integer', identity: 'increasing' },
    { name: 'id', type: 'text', write: (m) => m.id, read: 'id', notNull: true, unique: true },
    { name: 'recipient_run_id', type: 'text', write: (m) => m.recipientRunId, read: 'recipientRunId', notNull: true },
    { name: 'sender_run_id', type: 'text', write: (m) => m.senderRunId, read: 'senderRunId', notNull: true },
    { name: 'subject', type: 'text', write: (m) => m.subject, read: 'subject', notNull: true },
    { name: 'body', type: 'text', write: (m) => m.body, read: 'body', notNull: true },
    { name: 'sent_at', type: 'text', write: (m) => m.sentAt, read: 'sentAt', notNull: true, byteOrder: true },
    { name: 'delivered_at', type: 'text', write: (m) => m.deliveredAt, read: 'deliveredAt', optional: true },
    { name: 'read_at', type: 'text', write: (m) => m.readAt, read: 'readAt', optional: true },
  ],
  indexes: [{ name: 'agent_messages_by_recipient', on: 'recipient_run_id, seq' }],
};

/** The `agent_events` table: the lifecycle event feed, numbered by the database in insertion order. */
export const AGENT_EVENTS_TABLE: TableDescription<NewAgentEvent, AgentEventRecord> = {
  name: 'agent_events',
  columns: [
    { name: 'sequence', type: 'integer', identity: 'increasing', read: 'sequence' },
    { name: 'run_id', type: 'text', write: (e) => e.runId, read: 'runId', notNull: true },
    { name: 'event_type', type: 'text', write: (e) => e.eventType, read: 'eventType', notNull: true },
    { name: 'ref_id', type: 'text', write: (e) => e.refId, read: 'refId', optional: true },
    { name: 'execution_id', type: 'text', write: (e) => e.executionId, read: 'executionId', optional: true },
    { name: 'occurred_at', type: 'text', write: (e) => e.occurredAt, read: 'occurredAt', notNull: true },
  ],
  indexes: [{ name: 'agent_events_by_run', on: 'run_id, sequence' }],
};
