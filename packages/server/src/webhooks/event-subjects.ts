import type { RunItem } from '@agent-runs/core/contract';
import { toArtifactItem } from '../runs/to-artifact.js';
import type { ArtifactStore } from '../store/artifacts/artifact-store.js';
import type { ConversationStore } from '../store/conversations/conversation-store.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { RunStore } from '../store/runs/run-store.js';
import type { ScheduleStore } from '../store/schedules/schedule-store.js';
import type { OutboxEvent } from '../store/webhooks/webhook-store.js';
import type { EventSubject } from './webhook-events.js';

/** The longest follow-up text a payload carries. */
const MAX_FOLLOWUP_CHARS = 16 * 1024;

export interface EventSubjectSources {
  runs: RunStore;
  artifacts: ArtifactStore;
  conversations: ConversationStore;
  schedules: ScheduleStore;
  /** The run as `GET /agent/runs/{runId}` answers it. */
  runItem: (run: RunRecord) => Promise<RunItem>;
}

/** Reads what an outbox event is about: its run (as the API shows it), artifact, follow-up or schedule, and whose it is. */
export async function subjectOf(event: OutboxEvent, sources: EventSubjectSources): Promise<EventSubject> {
  if (event.kind === 'schedule.fired' || event.kind === 'schedule.failed') {
    const schedule = event.subjectId ? await sources.schedules.get(event.subjectId) : undefined;
    return {
      ownerUid: schedule?.creator.uid ?? null,
      ...(event.subjectId ? { scheduleId: event.subjectId } : {}),
      ...(schedule?.body.agent_config?.environment_id ? { environmentId: schedule.body.agent_config.environment_id } : {}),
      schedule: {
        schedule_id: event.subjectId ?? '',
        schedule_name: schedule?.name ?? '',
        run_id: event.runId,
        error: event.kind === 'schedule.failed' ? (schedule?.lastSpawnError ?? 'The schedule could not start a run.') : null,
      },
    };
  }
  const run = event.runId ? await sources.runs.get(event.runId) : undefined;
  const subject: EventSubject = {
    ownerUid: run?.creator.uid ?? null,
    ...(run ? { run: await sources.runItem(run) } : {}),
    ...(run?.agentConfig.environment_id ? { environmentId: run.agentConfig.environment_id } : {}),
    ...(run?.scheduleId ? { scheduleId: run.scheduleId } : {}),
  };
  if (event.kind === 'run.artifact_created' && event.subjectId) {
    const artifact = await sources.artifacts.get(event.subjectId);
    if (artifact) subject.artifact = toArtifactItem(artifact);
  }
  if (event.kind === 'run.followup_received' && event.runId && event.subjectId) {
    const message = (await sources.conversations.list(event.runId)).find((m) => m.id === event.subjectId);
    subject.followup = { followup_id: event.subjectId, message: (message?.text ?? '').slice(0, MAX_FOLLOWUP_CHARS) };
  }
  return subject;
}
