import type { RunMessage } from './conversation-store.js';
import { rowReader, selectList, type Row, type TableDescription } from './table-description.js';

/**
 * A message as a write stores it: a follow-up may carry the key that makes its retry a replay;
 * a `start` row notes which server started an execution (never read as a message).
 */
export type MessageWrite = Omit<RunMessage, 'kind'> & { kind: RunMessage['kind'] | 'start'; idempotencyKey?: string | null | undefined };

/** The `run_messages` table (follow-ups and results): what both stores write and read, column by column. */
export const MESSAGES_TABLE: TableDescription<MessageWrite, RunMessage> = {
  name: 'run_messages',
  columns: [
    { name: 'id', type: 'text', write: (m) => m.id, read: 'id' },
    { name: 'run_id', type: 'text', write: (m) => m.runId, read: 'runId' },
    { name: 'kind', type: 'text', write: (m) => m.kind, read: 'kind' },
    { name: 'text', type: 'text', write: (m) => m.text, read: 'text' },
    { name: 'mode', type: 'text', write: (m) => m.mode, read: 'mode' },
    { name: 'state', type: 'text', write: (m) => m.state, read: 'state' },
    { name: 'execution', type: 'integer', write: (m) => m.execution, read: 'execution' },
    { name: 'created_at', type: 'text', write: (m) => m.createdAt, read: 'createdAt' },
    { name: 'idempotency_key', type: 'text', write: (m) => m.idempotencyKey },
  ],
};

/** What a read of a message selects. */
export const MESSAGE_COLUMNS = selectList(MESSAGES_TABLE);

export const toMessage = rowReader(MESSAGES_TABLE);

export type { Row as MessageRow };
