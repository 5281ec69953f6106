import type { RunItem } from '@agent-runs/core/contract';
import type { RunRecord } from '../store/run-record.js';

/** The contract's view of a stored run; `sessionLink` carries the token that opens its page (AppContext.sessionLink). */
export function toRunItem(run: RunRecord, sessionLink: string): RunItem {
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
    session_link: sessionLink,
    agent_config: run.agentConfig,
    execution_location: 'LOCAL',
    is_sandbox_running: run.state === 'INPROGRESS',
  };
}
