import type { ArtifactItem, RunItem } from '@agent-runs/core/contract';
import type { WebhookEventType } from '@agent-runs/core/webhooks';
import type { OutboxEvent, WebhookSubscriptionRecord } from '../store/webhooks/webhook-store.js';

/** The most a payload's `data` may weigh; past it the event is sent thin, marked `truncated`. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

/** What a change is about, read once per outbox event and shared by every subscription. */
export interface EventSubject {
  /** The run, as `GET /agent/runs/{runId}` answers it now; undefined when it is gone. */
  run?: RunItem;
  /** Whose event it is: the run's or the schedule's creator. */
  ownerUid: string | null;
  environmentId?: string;
  scheduleId?: string;
  artifact?: ArtifactItem;
  followup?: { followup_id: string; message: string };
  schedule?: { schedule_id: string; schedule_name: string; run_id: string | null; error: string | null };
}

const TERMINAL: Record<string, WebhookEventType> = {
  SUCCEEDED: 'run.succeeded',
  FAILED: 'run.failed',
  ERROR: 'run.failed',
  BLOCKED: 'run.failed',
  CANCELLED: 'run.cancelled',
};

/** The event types an outbox event is sent as: a state change to an end state is also that ending. */
export function eventTypesOf(event: OutboxEvent): WebhookEventType[] {
  if (event.kind !== 'run.state_changed') return [event.kind];
  const ending = TERMINAL[event.state ?? ''];
  return ending ? ['run.state_changed', ending] : ['run.state_changed'];
}

/** What a change of a run to `state` may report: its state's types, and an artifact or follow-up it may have come with. */
export function changeTypes(state: string): WebhookEventType[] {
  const ending = TERMINAL[state];
  const own: WebhookEventType[] = state === 'QUEUED' ? ['run.created', 'run.state_changed'] : ending ? ['run.state_changed', ending] : ['run.state_changed'];
  return [...own, 'run.artifact_created', 'run.followup_received'];
}

/** Whether `subscription` gets `type` of this event: its types, its filter, and whose event it is. */
export function wants(subscription: WebhookSubscriptionRecord, type: WebhookEventType, event: OutboxEvent, subject: EventSubject, sharedRuns: boolean): boolean {
  if (!subscription.enabled || !subscription.eventTypes.includes(type)) return false;
  if (subscription.ownerUid !== null && !sharedRuns && subscription.ownerUid !== subject.ownerUid) return false;
  const { states, environment_id: environment, schedule_id: schedule } = subscription.filter;
  const state = event.state ?? subject.run?.state;
  if (states?.length && (!state || !states.includes(state))) return false;
  if (environment !== undefined && subject.environmentId !== environment) return false;
  if (schedule !== undefined && subject.scheduleId !== schedule) return false;
  return true;
}

const artifactUid = (artifact: ArtifactItem | undefined): string | undefined => {
  const data = artifact?.data as { artifact_uid?: unknown } | undefined;
  return typeof data?.artifact_uid === 'string' ? data.artifact_uid : undefined;
};

/** The body sent: `{ type, timestamp, data }`, `data` the run at this change (ids only when thin). */
export function payloadOf(type: WebhookEventType, event: OutboxEvent, subject: EventSubject, thin: boolean): string {
  const extra = {
    ...(event.previousState ? { previous_state: event.previousState } : {}),
    ...(subject.artifact ? { artifact: subject.artifact } : {}),
    ...(subject.followup ? { followup: subject.followup } : {}),
  };
  const thinData = (): Record<string, unknown> => {
    if (subject.schedule) return { schedule_id: subject.schedule.schedule_id, run_id: subject.schedule.run_id };
    return {
      run_id: event.runId,
      state: event.state ?? subject.run?.state,
      ...(event.previousState ? { previous_state: event.previousState } : {}),
      ...(artifactUid(subject.artifact) ? { artifact_uid: artifactUid(subject.artifact) } : {}),
      ...(subject.followup ? { followup_id: subject.followup.followup_id } : {}),
    };
  };
  const envelope = (data: Record<string, unknown>) => JSON.stringify({ type, timestamp: event.at, data });
  if (thin) return envelope(thinData());
  let data: Record<string, unknown>;
  if (subject.schedule) data = { ...subject.schedule };
  else if (subject.run) {
    // The run as it was at this change: a later change has its own event.
    const atChange = event.state ? { state: event.state, updated_at: event.at, is_sandbox_running: event.state === 'INPROGRESS' } : {};
    data = { ...subject.run, ...atChange, ...extra };
  } else data = thinData();
  const full = envelope(data);
  return Buffer.byteLength(full) <= MAX_PAYLOAD_BYTES ? full : envelope({ ...thinData(), truncated: true });
}
