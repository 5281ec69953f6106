import type { RunMessage } from './conversation-store.js';
import { rowReader, selectList, type Row, type TableDescription } from '../table-description.js';

/**
 * A message as a write stores it: a follow-up may carry the key that makes its retry a replay;
 * a `start` row notes which server started an execution (never read as a message).
 */
export type MessageWrite = Omit<RunMessage, 'kind'> & { kind: RunMessage['kind'] | 'start'; idempotencyKey?: string | null | undefined };

/** The `run_messages` table (follow-ups and results): what both stores write and read, column by column. */
export const MESSAGES_TABLE: TableDescription<MessageWrite, RunMessage> = {
  name: 'run_messages',
  columns: [
    { name: 'seq', type: 'integer', identity: 'increasing' },
    { name: 'id', type: 'text', write: (m) => m.id, read: 'id', notNull: true, unique: true },
    { name: 'run_id', type: 'text', write: (m) => m.runId, read: 'runId', notNull: true },
    { name: 'kind', type: 'text', write: (m) => m.kind, read: 'kind', notNull: true },
    { name: 'text', type: 'text', write: (m) => m.text, read: 'text', notNull: true },
    { name: 'mode', type: 'text', write: (m) => m.mode, read: 'mode' },
    { name: 'state', type: 'text', write: (m) => m.state, read: 'state' },
    { name: 'execution', type: 'int32', write: (m) => m.execution, read: 'execution' },
    { name: 'created_at', type: 'text', write: (m) => m.createdAt, read: 'createdAt', notNull: true, byteOrder: true },
    { name: 'idempotency_key', type: 'text', write: (m) => m.idempotencyKey },
  ],
  indexes: [
    { name: 'run_messages_by_run', on: 'run_id, seq' },
    { name: 'run_messages_idempotency', on: 'run_id, idempotency_key', unique: true, where: 'idempotency_key IS NOT NULL' },
  ],
};

/** What a read of a message selects. */
export const MESSAGE_COLUMNS = selectList(MESSAGES_TABLE);

export const toMessage = rowReader(MESSAGES_TABLE);

export type { Row as MessageRow };
