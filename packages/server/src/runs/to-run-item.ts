import type { RunItem } from '@agent-runs/core/contract';
import type { ArtifactRecord } from '../store/artifacts/artifact-store.js';
import type { RunRecord } from '../store/runs/run-record.js';
import { toArtifactItem } from './to-artifact.js';

/** The contract's view of a stored run; `sessionLink` carries the token that opens its page (AppContext.sessionLink). */
export function toRunItem(run: RunRecord, sessionLink: string, artifacts: readonly ArtifactRecord[] = []): RunItem {
  return {
    run_id: run.id,
    task_id: run.id,
    title: run.title,
    state: run.state,
    prompt: run.prompt,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    started_at: run.startedAt,
    status_message: run.statusMessage ?? undefined,
    source: run.source,
    creator: run.creator,
    session_id: run.sessionId,
    session_link: sessionLink,
    agent_config: run.agentConfig,
    execution_location: 'LOCAL',
    is_sandbox_running: run.state === 'INPROGRESS',
    is_run_type_cancellable: true,
    // The local server runs everything with its caller's credentials.
    executor: run.creator,
    parent_run_id: run.parentRunId,
    conversation_id: run.conversationId,
    metadata: run.metadata,
    artifacts: artifacts.length ? artifacts.map(toArtifactItem) : undefined,
    schedule: run.origin?.schedule,
    agent_skill: run.origin?.agent_skill,
    request_usage: run.requestUsage,
  };
}
