import type { OutboxEvent, WebhookDeliveryRecord, WebhookSubscriptionRecord } from './webhook-store.js';

/** The columns of each webhook table as both databases read and write them. */
export const SUBSCRIPTION_COLUMNS =
  'id, owner_uid, url, event_types, filter, thin, enabled, disabled_reason, description, secret, previous_secret, previous_secret_expires_at, declared, created_at, updated_at';
export const OUTBOX_COLUMNS = 'seq, kind, run_id, subject_id, state, previous_state, at';
export const DELIVERY_COLUMNS =
  'seq, id, subscription_id, event_seq, event_type, order_key, payload, status, attempts, next_attempt_at, last_attempt_at, last_status, last_response, last_error, created_at';

type Row = Record<string, unknown>;
const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function subscriptionValues(s: WebhookSubscriptionRecord, boolean: (value: boolean) => unknown): unknown[] {
  return [
    s.id,
    s.ownerUid,
    s.url,
    JSON.stringify(s.eventTypes),
    JSON.stringify(s.filter),
    boolean(s.thin),
    boolean(s.enabled),
    s.disabledReason,
    s.description,
    s.secret,
    s.previousSecret,
    s.previousSecretExpiresAt,
    boolean(s.declared),
    s.createdAt,
    s.updatedAt,
  ];
}

export function toSubscription(row: Row): WebhookSubscriptionRecord {
  return {
    id: String(row['id']),
    ownerUid: str(row['owner_uid']),
    url: String(row['url']),
    eventTypes: JSON.parse(String(row['event_types'])) as string[],
    filter: JSON.parse(String(row['filter'])) as WebhookSubscriptionRecord['filter'],
    thin: Boolean(row['thin']),
    enabled: Boolean(row['enabled']),
    disabledReason: str(row['disabled_reason']),
    description: str(row['description']),
    secret: String(row['secret']),
    previousSecret: str(row['previous_secret']),
    previousSecretExpiresAt: num(row['previous_secret_expires_at']),
    declared: Boolean(row['declared']),
    createdAt: String(row['created_at']),
    updatedAt: String(row['updated_at']),
  };
}

export function toOutboxEvent(row: Row): OutboxEvent {
  return {
    seq: Number(row['seq']),
    kind: row['kind'] as OutboxEvent['kind'],
    runId: str(row['run_id']),
    subjectId: str(row['subject_id']),
    state: str(row['state']),
    previousState: str(row['previous_state']),
    at: String(row['at']),
  };
}

export function toDelivery(row: Row): WebhookDeliveryRecord {
  return {
    seq: Number(row['seq']),
    id: String(row['id']),
    subscriptionId: String(row['subscription_id']),
    eventSeq: Number(row['event_seq']),
    eventType: String(row['event_type']),
    orderKey: String(row['order_key']),
    payload: String(row['payload']),
    status: row['status'] as WebhookDeliveryRecord['status'],
    attempts: Number(row['attempts']),
    nextAttemptAt: num(row['next_attempt_at']) ?? 0,
    lastAttemptAt: str(row['last_attempt_at']),
    lastStatus: num(row['last_status']),
    lastResponse: str(row['last_response']),
    lastError: str(row['last_error']),
    createdAt: String(row['created_at']),
    // Only a claim reads it.
    hasNext: Boolean(row['has_next']),
  };
}
