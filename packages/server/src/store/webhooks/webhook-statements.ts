import type { LeasedTable } from '../leased-table.js';
import type { LeaseClaim } from '../leases.js';
import { claimScan, type ClaimRequest, type WebhookDeliveryRecord } from './webhook-store.js';
import { DELIVERY_COLUMNS, OUTBOX_COLUMNS, SUBSCRIPTION_COLUMNS } from './webhook-tables.js';

/**
 * Due (bound: now, then whether enabled): pending, its time come, of an enabled subscription,
 * and the oldest pending delivery of its order key (each run's events go in order).
 */
const DUE = `d.status = 'pending' AND d.next_attempt_at <= ?
        AND EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = d.subscription_id AND s.enabled = ?)
        AND NOT EXISTS (
          SELECT 1 FROM webhook_deliveries e
          WHERE e.subscription_id = d.subscription_id AND e.order_key = d.order_key AND e.status = 'pending' AND e.event_seq < d.event_seq)`;

/** Whether a later delivery of the order key of `table`'s row waits (a claim returns it as `has_next`). */
const HAS_NEXT = (table: string) => `EXISTS (
      SELECT 1 FROM webhook_deliveries n
      WHERE n.subscription_id = ${table}.subscription_id AND n.order_key = ${table}.order_key AND n.status = 'pending' AND n.event_seq > ${table}.event_seq) AS has_next`;

/** An attempt recorded (bound: its outcome, then the delivery's seq), its lease dropped. */
const RECORD = `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?, last_attempt_at = ?,
    last_status = ?, last_response = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL
    WHERE seq = ?`;

/** A delivery's columns as SQLite reads them: the payload from webhook_payloads when the row refers to one. */
const SQLITE_DELIVERY_COLUMNS = DELIVERY_COLUMNS.replace(/\bpayload\b/, 'COALESCE((SELECT p.body FROM webhook_payloads p WHERE p.seq = d.payload_seq), d.payload) AS payload');

/** Not of the subscriptions skipped (bound: their ids as a JSON array), in each database's words for the array's elements. */
const NOT_SKIPPED = (elements: string) => ` AND d.subscription_id NOT IN (SELECT ${elements})`;

/**
 * Deliveries as leased, on the caller's clock (epoch milliseconds, as `next_attempt_at`):
 * a claim takes due ones of subscriptions not skipped (bound: now, whether enabled, the
 * subscriptions skipped as a JSON array), oldest first, and sets nothing but the lease
 * (on SQLite it is a read); the lease lasts until the attempt is recorded.
 */
export const leasedDeliveries = (dialect: 'sqlite' | 'postgres'): LeasedTable => ({
  name: 'webhook_deliveries',
  alias: 'd',
  key: ['seq'],
  keyType: 'bigint',
  owner: 'lease_owner',
  expiresAt: 'lease_expires_at',
  clock: 'caller',
  held: "d.status = 'pending'",
  due: `${DUE}${NOT_SKIPPED(dialect === 'sqlite' ? 'value FROM json_each(?)' : 'json_array_elements_text(?::json)')}`,
  order: 'd.next_attempt_at',
  columns: `${dialect === 'sqlite' ? SQLITE_DELIVERY_COLUMNS : DELIVERY_COLUMNS}, ${HAS_NEXT('d')}`,
});

/** A claim of deliveries as their leases take it; `enabled` as the dialect binds true. */
export const deliveryLeaseClaim = (request: ClaimRequest, enabled: unknown): LeaseClaim<WebhookDeliveryRecord> => ({
  owner: request.owner,
  now: request.now,
  leaseMs: request.leaseMs,
  limit: request.limit,
  dueParams: [request.now, enabled, JSON.stringify(request.skipSubscriptions ?? [])],
  ...(request.choose ? { choose: request.choose, scan: claimScan(request) } : {}),
});

/**
 * The webhook store's statements, written once with `?`; PostgreSQL numbers them (`numbered`).
 * The inserts and the save of a subscription are each store's, from the table descriptions.
 */
export const WEBHOOK_SQL = {
  getSubscription: `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ?`,
  listSubscriptions: `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions ORDER BY seq`,
  deleteDeliveriesOf: 'DELETE FROM webhook_deliveries WHERE subscription_id = ?',
  deleteSubscription: 'DELETE FROM webhook_subscriptions WHERE id = ?',
  outbox: `SELECT ${OUTBOX_COLUMNS} FROM webhook_outbox ORDER BY seq LIMIT ?`,
  deleteOutbox: 'DELETE FROM webhook_outbox WHERE seq = ?',
  /** SQLite's: it checks the lease itself (PostgreSQL records many in one statement, under the lease). */
  recordAttempt: RECORD,
  deliveries: `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE subscription_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
  getDelivery: `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`,
  /** SQLite's payloads, kept once per event (webhook-schema.ts), and its reads of deliveries that may refer to one. */
  sqlite: {
    deliveries: `SELECT ${SQLITE_DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE subscription_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    getDelivery: `SELECT ${SQLITE_DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE id = ?`,
    /** Bound: the subscription, twice. Each subquery is read once (not per payload). */
    deletePayloadsOf: `DELETE FROM webhook_payloads WHERE seq IN (SELECT payload_seq FROM webhook_deliveries WHERE subscription_id = ?)
      AND seq NOT IN (SELECT payload_seq FROM webhook_deliveries WHERE subscription_id <> ? AND payload_seq IS NOT NULL)`,
    prunePayloads: `DELETE FROM webhook_payloads WHERE created_ms < ?
      AND seq NOT IN (SELECT payload_seq FROM webhook_deliveries WHERE payload_seq IS NOT NULL)`,
  },
  redeliver: `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, lease_owner = NULL, lease_expires_at = NULL WHERE id = ? RETURNING seq`,
  /** SQLite's: the leases a version that kept them in the file left behind. */
  releaseFileLeasesOf: 'UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = ?',
  releaseFileLeases: 'UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner IS NOT NULL',
  prune: "DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_ms < ?",
};

/** A delivery made before (by another server fanning out the same events) is kept as it is. */
export const KEEP_DELIVERY_MADE = 'ON CONFLICT (id) DO NOTHING';
