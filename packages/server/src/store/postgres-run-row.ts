import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { RunOrigin, RunRecord } from './run-record.js';
import { toNumber } from './postgres-transaction.js';

/** A `runs` row as read; the request extras, idempotency and lease columns are left out. */
export interface PostgresRunRow {
  seq: string;
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
  interactive: boolean | null;
  agent_identity_uid: string | null;
  schedule_id: string | null;
  origin: string | null;
  request_hash?: string | null;
  config_name?: string;
  has_artifacts?: boolean;
}

/** What a read of a run selects (also what an UPDATE … RETURNING answers). */
export const RUN_COLUMNS =
  'seq, id, title, state, prompt, created_at, updated_at, started_at, status_message, source, creator, session_id, agent_config, ' +
  'parent_run_id, conversation_id, metadata, mode, interactive, agent_identity_uid, schedule_id, origin';

/** Read with one run: whether it has artifacts (an index probe), so most reads of a run need no second query. */
export const HAS_ARTIFACTS = 'EXISTS (SELECT 1 FROM artifacts a WHERE a.run_id = runs.id) AS has_artifacts';

export function toRunRecord(row: PostgresRunRow): RunRecord {
  return {
    seq: toNumber(row.seq),
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
    ...(row.interactive !== null ? { interactive: row.interactive } : {}),
    ...(row.agent_identity_uid !== null ? { agentIdentityUid: row.agent_identity_uid } : {}),
    ...(row.schedule_id !== null ? { scheduleId: row.schedule_id } : {}),
    ...(row.origin ? { origin: JSON.parse(row.origin) as RunOrigin } : {}),
    ...(row.has_artifacts !== undefined ? { hasArtifacts: row.has_artifacts } : {}),
  };
}
