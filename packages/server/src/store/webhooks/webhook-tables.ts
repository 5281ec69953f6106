import { rowReader, selectList, type Row, type TableDescription } from '../table-description.js';
import type { NewWebhookDelivery, OutboxEvent, WebhookDeliveryRecord, WebhookSubscriptionRecord } from './webhook-store.js';

/** The `webhook_subscriptions` table: what both stores write and read, column by column. */
export const SUBSCRIPTIONS_TABLE: TableDescription<WebhookSubscriptionRecord, WebhookSubscriptionRecord> = {
  name: 'webhook_subscriptions',
  columns: [
    { name: 'seq', type: 'integer', identity: 'increasing' },
    { name: 'id', type: 'text', write: (s) => s.id, read: 'id', notNull: true, unique: true },
    { name: 'owner_uid', type: 'text', write: (s) => s.ownerUid, read: 'ownerUid' },
    { name: 'url', type: 'text', write: (s) => s.url, read: 'url', notNull: true },
    { name: 'event_types', type: 'json', write: (s) => s.eventTypes, read: 'eventTypes', notNull: true },
    { name: 'filter', type: 'json', write: (s) => s.filter, read: 'filter', notNull: true },
    { name: 'thin', type: 'boolean', write: (s) => s.thin, read: 'thin', notNull: true },
    { name: 'enabled', type: 'boolean', write: (s) => s.enabled, read: 'enabled', notNull: true },
    { name: 'disabled_reason', type: 'text', write: (s) => s.disabledReason, read: 'disabledReason' },
    { name: 'description', type: 'text', write: (s) => s.description, read: 'description' },
    { name: 'secret', type: 'text', write: (s) => s.secret, read: 'secret', notNull: true },
    { name: 'previous_secret', type: 'text', write: (s) => s.previousSecret, read: 'previousSecret' },
    { name: 'previous_secret_expires_at', type: 'integer', write: (s) => s.previousSecretExpiresAt, read: 'previousSecretExpiresAt' },
    { name: 'declared', type: 'boolean', write: (s) => s.declared, read: 'declared', notNull: true },
    { name: 'created_at', type: 'text', write: (s) => s.createdAt, read: 'createdAt', notNull: true },
    { name: 'updated_at', type: 'text', write: (s) => s.updatedAt, read: 'updatedAt', notNull: true },
  ],
};

/** What a save of a subscription rewrites: all it holds, by its id. */
export const SUBSCRIPTION_SAVED_COLUMNS = SUBSCRIPTIONS_TABLE.columns.filter((c) => c.write && c.name !== 'id').map((c) => c.name);

/** The `webhook_outbox` table, which only the triggers write (webhook-schema.ts). */
export const OUTBOX_TABLE: TableDescription<never, OutboxEvent> = {
  name: 'webhook_outbox',
  columns: [
    { name: 'seq', type: 'integer', read: 'seq', identity: 'increasing' },
    { name: 'kind', type: 'text', read: 'kind', notNull: true },
    { name: 'run_id', type: 'text', read: 'runId' },
    { name: 'subject_id', type: 'text', read: 'subjectId' },
    { name: 'state', type: 'text', read: 'state' },
    { name: 'previous_state', type: 'text', read: 'previousState' },
    { name: 'at', type: 'text', read: 'at', notNull: true },
  ],
};

/**
 * A delivery as a write stores it; with `payloadSeq`, its payload is that row of `webhook_payloads`
 * (SQLite). The delivery is wrapped, not copied with the seq added: such a copy took microseconds a
 * delivery, on the fan-out's path.
 */
export interface DeliveryWrite {
  delivery: NewWebhookDelivery;
  payloadSeq?: number | undefined;
}

/**
 * The `webhook_deliveries` table: what both stores write and read, column by column. The
 * leases, recorded attempts and claims are statements of their own (webhook-statements.ts).
 */
export const DELIVERIES_TABLE: TableDescription<DeliveryWrite, WebhookDeliveryRecord> = {
  name: 'webhook_deliveries',
  columns: [
    { name: 'seq', type: 'integer', read: 'seq', identity: 'increasing' },
    { name: 'id', type: 'text', write: (w) => w.delivery.id, read: 'id', notNull: true, unique: true },
    { name: 'subscription_id', type: 'text', write: (w) => w.delivery.subscriptionId, read: 'subscriptionId', notNull: true },
    { name: 'event_seq', type: 'integer', write: (w) => w.delivery.eventSeq, read: 'eventSeq', notNull: true },
    { name: 'event_type', type: 'text', write: (w) => w.delivery.eventType, read: 'eventType', notNull: true },
    { name: 'order_key', type: 'text', write: (w) => w.delivery.orderKey, read: 'orderKey', notNull: true },
    // Empty where the row refers to its payload by `payload_seq`.
    { name: 'payload', type: 'text', write: (w) => (w.payloadSeq === undefined ? w.delivery.payload : ''), read: 'payload', notNull: true },
    // A delivery is made pending, not yet attempted.
    { name: 'status', type: 'text', write: () => 'pending', read: 'status', notNull: true },
    { name: 'attempts', type: 'integer', write: () => 0, read: 'attempts', notNull: true },
    { name: 'next_attempt_at', type: 'integer', write: (w) => w.delivery.nextAttemptAt, read: 'nextAttemptAt' },
    { name: 'lease_owner', type: 'text' },
    { name: 'lease_expires_at', type: 'integer' },
    { name: 'last_attempt_at', type: 'text', read: 'lastAttemptAt' },
    { name: 'last_status', type: 'integer', read: 'lastStatus' },
    { name: 'last_response', type: 'text', read: 'lastResponse' },
    { name: 'last_error', type: 'text', read: 'lastError' },
    { name: 'created_at', type: 'text', write: (w) => w.delivery.createdAt, read: 'createdAt', notNull: true },
    { name: 'created_ms', type: 'integer', write: (w) => Date.parse(w.delivery.createdAt), notNull: true },
    // SQLite keeps each payload once, in webhook_payloads (its step "webhook payloads once per event" adds the column).
    { name: 'payload_seq', type: 'integer', write: (w) => w.payloadSeq, only: 'sqlite' },
  ],
  indexes: [
    { name: 'webhook_deliveries_due', on: 'next_attempt_at', where: "status = 'pending'" },
    { name: 'webhook_deliveries_in_order', on: 'subscription_id, order_key, event_seq', where: "status = 'pending'" },
    { name: 'webhook_deliveries_by_subscription', on: 'subscription_id, seq' },
  ],
};

/** SQLite's `webhook_payloads`: each delivery's payload once, however many subscriptions it goes to (webhook-schema.ts). */
export const PAYLOADS_TABLE: TableDescription<NewWebhookDelivery, never> = {
  name: 'webhook_payloads',
  only: 'sqlite',
  columns: [
    { name: 'seq', type: 'integer', identity: 'rowid' },
    { name: 'body', type: 'text', write: (d) => d.payload, notNull: true },
    { name: 'created_ms', type: 'integer', write: (d) => Date.parse(d.createdAt), notNull: true },
  ],
};

/** What a read of each webhook table selects. */
export const SUBSCRIPTION_COLUMNS = selectList(SUBSCRIPTIONS_TABLE);
export const OUTBOX_COLUMNS = selectList(OUTBOX_TABLE);
export const DELIVERY_COLUMNS = selectList(DELIVERIES_TABLE);

export const toSubscription = rowReader(SUBSCRIPTIONS_TABLE);
export const toOutboxEvent = rowReader(OUTBOX_TABLE);
const readDelivery = rowReader(DELIVERIES_TABLE);

/** A delivery read with DELIVERY_COLUMNS, and by a claim also `has_next`. */
export function toDelivery(row: Row): WebhookDeliveryRecord {
  const delivery = readDelivery(row);
  // A delivery done with has no next attempt.
  delivery.nextAttemptAt ??= 0;
  delivery.hasNext = Boolean(row['has_next']);
  return delivery;
}
