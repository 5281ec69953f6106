import type pg from 'pg';
import { inTransaction } from '../postgres-transaction.js';
import { numbered, postgresDialect } from '../sql-dialect.js';
import { byColumn, insertManyStatement, insertStatement, updateStatement, type Row } from '../table-description.js';
import { deliveryLeaseClaim, KEEP_DELIVERY_MADE, leasedDeliveries, WEBHOOK_SQL } from './webhook-statements.js';
import { DELIVERIES_TABLE, SUBSCRIPTION_SAVED_COLUMNS, SUBSCRIPTIONS_TABLE, toDelivery, toOutboxEvent, toSubscription } from './webhook-tables.js';
import { PostgresLeases } from '../postgres-leases.js';
import type {
  ClaimRequest,
  NewWebhookDelivery,
  OutboxEvent,
  RecordedAttempt,
  WebhookDeliveryRecord,
  WebhookStore,
  WebhookSubscriptionRecord,
} from './webhook-store.js';

const SQL = Object.fromEntries(
  Object.entries(WEBHOOK_SQL).map(([name, sql]) => [name, typeof sql === 'string' ? numbered(sql) : '']),
) as Record<Exclude<keyof typeof WEBHOOK_SQL, 'sqlite'>, string>;
const INSERT_SUBSCRIPTION = insertStatement(SUBSCRIPTIONS_TABLE, postgresDialect);
const SAVE_SUBSCRIPTION = updateStatement(SUBSCRIPTIONS_TABLE, postgresDialect, SUBSCRIPTION_SAVED_COLUMNS, 'id');
const INSERT_DELIVERY = insertStatement(DELIVERIES_TABLE, postgresDialect, KEEP_DELIVERY_MADE);
// Many rows in one statement, a column an array each: one round trip however many.
const INSERT_DELIVERIES = insertManyStatement(DELIVERIES_TABLE, KEEP_DELIVERY_MADE);
const RECORD_ATTEMPTS = `UPDATE webhook_deliveries d SET status = a.status, attempts = d.attempts + 1, next_attempt_at = a.next_attempt_at,
    last_attempt_at = a.at, last_status = a.last_status, last_response = a.last_response, last_error = a.last_error,
    lease_owner = NULL, lease_expires_at = NULL
  FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::text[])
    AS a(seq, status, next_attempt_at, at, last_status, last_response, last_error)
  WHERE d.seq = a.seq AND d.lease_owner = $8
  RETURNING d.seq`;

/** Deliveries claimed, the earliest events first. */
const byEvent = (claimed: WebhookDeliveryRecord[]): WebhookDeliveryRecord[] => claimed.sort((a, b) => a.eventSeq - b.eventSeq);

/** Webhooks in PostgreSQL, shared by every server of the database. */
export class PostgresWebhookStore implements WebhookStore {
  private readonly leases: PostgresLeases<WebhookDeliveryRecord>;

  constructor(private readonly pool: pg.Pool) {
    this.leases = new PostgresLeases(pool, leasedDeliveries('postgres'), toDelivery);
  }

  private async rows(sql: string, values: unknown[]): Promise<Row[]> {
    return (await this.pool.query<Row>(sql, values)).rows;
  }

  async createSubscription(subscription: WebhookSubscriptionRecord): Promise<void> {
    await this.pool.query(INSERT_SUBSCRIPTION.sql, INSERT_SUBSCRIPTION.values(subscription));
  }

  async getSubscription(id: string): Promise<WebhookSubscriptionRecord | undefined> {
    const [row] = await this.rows(SQL.getSubscription, [id]);
    return row ? toSubscription(row) : undefined;
  }

  async listSubscriptions(): Promise<WebhookSubscriptionRecord[]> {
    return (await this.rows(SQL.listSubscriptions, [])).map(toSubscription);
  }

  async saveSubscription(subscription: WebhookSubscriptionRecord): Promise<boolean> {
    const result = await this.pool.query(SAVE_SUBSCRIPTION.sql, SAVE_SUBSCRIPTION.values(subscription));
    return (result.rowCount ?? 0) > 0;
  }

  async deleteSubscription(id: string): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await client.query(SQL.deleteDeliveriesOf, [id]);
      return ((await client.query(SQL.deleteSubscription, [id])).rowCount ?? 0) > 0;
    });
  }

  async outbox(limit: number): Promise<OutboxEvent[]> {
    return (await this.rows(SQL.outbox, [limit])).map(toOutboxEvent);
  }

  async fanOut(events: readonly number[], deliveries: readonly NewWebhookDelivery[], claim?: ClaimRequest): Promise<WebhookDeliveryRecord[]> {
    return inTransaction(this.pool, async (client) => {
      if (deliveries.length) await client.query(INSERT_DELIVERIES.sql, INSERT_DELIVERIES.values(deliveries.map((delivery) => ({ delivery }))));
      if (events.length) await client.query('DELETE FROM webhook_outbox WHERE seq = ANY($1::bigint[])', [[...events]]);
      return claim ? byEvent(await this.leases.claimIn(client, deliveryLeaseClaim(claim, true))) : [];
    });
  }

  async addDelivery(delivery: NewWebhookDelivery): Promise<void> {
    await this.pool.query(INSERT_DELIVERY.sql, INSERT_DELIVERY.values({ delivery }));
  }

  async claim(request: ClaimRequest): Promise<WebhookDeliveryRecord[]> {
    return byEvent(await this.leases.claim(deliveryLeaseClaim(request, true)));
  }

  async recordAttempts(owner: string, attempts: readonly RecordedAttempt[]): Promise<boolean[]> {
    if (attempts.length === 0) return [];
    const rows = attempts.map((a) => [a.seq, a.status, a.nextAttemptAt, a.at, a.responseStatus, a.responseBody, a.error]);
    const recorded = new Set((await this.rows(RECORD_ATTEMPTS, [...byColumn(rows, 7), owner])).map((row) => Number(row['seq'])));
    return attempts.map((a) => recorded.has(a.seq));
  }

  async deliveries(subscriptionId: string, limit: number, beforeSeq = Number.MAX_SAFE_INTEGER): Promise<WebhookDeliveryRecord[]> {
    return (await this.rows(SQL.deliveries, [subscriptionId, beforeSeq, limit])).map(toDelivery);
  }

  async getDelivery(id: string): Promise<WebhookDeliveryRecord | undefined> {
    const [row] = await this.rows(SQL.getDelivery, [id]);
    return row ? toDelivery(row) : undefined;
  }

  async redeliver(id: string, now: number): Promise<boolean> {
    return ((await this.pool.query(SQL.redeliver, [now, id])).rowCount ?? 0) > 0;
  }

  async releaseLeases(owner?: string): Promise<void> {
    await this.leases.release(owner);
  }

  async prune(beforeMs: number): Promise<number> {
    return (await this.pool.query(SQL.prune, [beforeMs])).rowCount ?? 0;
  }
}
