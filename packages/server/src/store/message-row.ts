import type { RunMessage } from './conversation-store.js';

/** A `run_messages` row as both databases answer it. */
export interface MessageRow {
  id: string;
  run_id: string;
  kind: string;
  text: string;
  mode: string | null;
  state: string | null;
  execution: number | null;
  created_at: string;
}

export const MESSAGE_COLUMNS = 'id, run_id, kind, text, mode, state, execution, created_at';

export function toMessage(row: MessageRow): RunMessage {
  return {
    id: row.id,
    runId: row.run_id,
    kind: row.kind as RunMessage['kind'],
    text: row.text,
    mode: row.mode,
    state: row.state,
    execution: row.execution,
    createdAt: row.created_at,
  };
}
