import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { RunOrigin, RunRecord } from './run-record.js';
import type { SortField } from './run-store.js';

/**
 * A `runs` row as both databases answer a read (PostgreSQL gives bigints as strings and
 * booleans as such, SQLite 0/1); the request extras, idempotency and lease columns are left out.
 */
export interface RunRow {
  seq: number | string;
  id: string;
  title: string;
  state: string;
  prompt: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  status_message: string | null;
  source: string;
  creator: string;
  session_id: string;
  agent_config: string;
  parent_run_id: string | null;
  conversation_id: string | null;
  metadata: string | null;
  mode: string | null;
  interactive: boolean | number | null;
  agent_identity_uid: string | null;
  schedule_id: string | null;
  origin: string | null;
  request_hash?: string | null;
  config_name?: string;
  has_artifacts?: boolean;
}

/** The column each sort of a list walks (with `seq` after it, in an index of both databases). */
export const SORT_COLUMN: Record<SortField, string> = {
  updated_at: 'updated_at',
  created_at: 'created_at',
  title: 'title',
  agent: 'config_name',
};

/** What a read of a run selects (also what an UPDATE … RETURNING answers). */
export const RUN_COLUMNS =
  'seq, id, title, state, prompt, created_at, updated_at, started_at, status_message, source, creator, session_id, agent_config, ' +
  'parent_run_id, conversation_id, metadata, mode, interactive, agent_identity_uid, schedule_id, origin';

export function toRunRecord(row: RunRow): RunRecord {
  return {
    seq: Number(row.seq),
    id: row.id,
    title: row.title,
    state: row.state,
    prompt: row.prompt,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    statusMessage: row.status_message ? (JSON.parse(row.status_message) as RunStatusMessage) : null,
    source: row.source,
    creator: JSON.parse(row.creator) as RunRecord['creator'],
    sessionId: row.session_id,
    agentConfig: JSON.parse(row.agent_config) as RunRecord['agentConfig'],
    ...(row.parent_run_id !== null ? { parentRunId: row.parent_run_id } : {}),
    ...(row.conversation_id !== null ? { conversationId: row.conversation_id } : {}),
    ...(row.metadata !== null ? { metadata: JSON.parse(row.metadata) as Record<string, string> } : {}),
    ...(row.mode !== null ? { mode: row.mode as RunRecord['mode'] } : {}),
    ...(row.interactive !== null ? { interactive: row.interactive === true || row.interactive === 1 } : {}),
    ...(row.agent_identity_uid !== null ? { agentIdentityUid: row.agent_identity_uid } : {}),
    ...(row.schedule_id !== null ? { scheduleId: row.schedule_id } : {}),
    ...(row.origin ? { origin: JSON.parse(row.origin) as RunOrigin } : {}),
    ...(row.has_artifacts !== undefined ? { hasArtifacts: row.has_artifacts } : {}),
  };
}
