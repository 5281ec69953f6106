import type { RunItem } from '@agent-runs/core/contract';
import type { RunRecord } from '../store/run-record.js';

/** The contract's view of a stored run; the session link is built from where the server is reachable now. */
export function toRunItem(run: RunRecord, publicUrl: string): RunItem {
  return {
    run_id: run.id,
    task_id: run.id,
    title: run.title,
    state: run.state,
    prompt: run.prompt,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    started_at: run.startedAt,
    ...(run.statusMessage ? { status_message: run.statusMessage } : {}),
    source: run.source,
    creator: run.creator,
    session_id: run.sessionId,
    session_link: `${publicUrl}/sessions/${run.sessionId}`,
    agent_config: run.agentConfig,
    execution_location: 'LOCAL',
    is_sandbox_running: run.state === 'INPROGRESS',
  };
}
