import type pg from 'pg';
import { inTransaction } from './postgres-transaction.js';
import { postgresDialect } from './sql-dialect.js';
import { toDelivery, toOutboxEvent, toSubscription, subscriptionValues } from './webhook-rows.js';
import { deliveryValues, numbered, WEBHOOK_SQL } from './webhook-statements.js';
import type {
  DeliveryAttempt,
  NewWebhookDelivery,
  OutboxEvent,
  WebhookDeliveryRecord,
  WebhookStore,
  WebhookSubscriptionRecord,
} from './webhook-store.js';

type Row = Record<string, unknown>;

const SQL = Object.fromEntries(
  Object.entries(WEBHOOK_SQL).map(([name, sql]) => [name, typeof sql === 'string' ? numbered(sql) : '']),
) as Record<Exclude<keyof typeof WEBHOOK_SQL, 'claim'>, string>;
const CLAIM = numbered(WEBHOOK_SQL.claim('FOR UPDATE SKIP LOCKED'));

/** Webhooks in PostgreSQL, shared by every server of the database. */
export class PostgresWebhookStore implements WebhookStore {
  constructor(private readonly pool: pg.Pool) {}

  private async rows(sql: string, values: unknown[]): Promise<Row[]> {
    return (await this.pool.query<Row>(sql, values)).rows;
  }

  async createSubscription(subscription: WebhookSubscriptionRecord): Promise<void> {
    await this.pool.query(SQL.insertSubscription, subscriptionValues(subscription, postgresDialect.boolean));
  }

  async getSubscription(id: string): Promise<WebhookSubscriptionRecord | undefined> {
    const [row] = await this.rows(SQL.getSubscription, [id]);
    return row ? toSubscription(row) : undefined;
  }

  async listSubscriptions(): Promise<WebhookSubscriptionRecord[]> {
    return (await this.rows(SQL.listSubscriptions, [])).map(toSubscription);
  }

  async saveSubscription(subscription: WebhookSubscriptionRecord): Promise<boolean> {
    const result = await this.pool.query(SQL.saveSubscription, [...subscriptionValues(subscription, postgresDialect.boolean), subscription.id]);
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

  async fanOut(events: readonly number[], deliveries: readonly NewWebhookDelivery[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      for (const delivery of deliveries) await client.query(SQL.insertDelivery, deliveryValues(delivery));
      if (events.length) await client.query('DELETE FROM webhook_outbox WHERE seq = ANY($1::bigint[])', [[...events]]);
    });
  }

  async addDelivery(delivery: NewWebhookDelivery): Promise<void> {
    await this.pool.query(SQL.insertDelivery, deliveryValues(delivery));
  }

  async claim(owner: string, now: number, leaseMs: number, limit: number): Promise<WebhookDeliveryRecord[]> {
    const rows = await this.rows(CLAIM, [owner, now + leaseMs, now, now, true, limit]);
    return rows.map(toDelivery).sort((a, b) => a.eventSeq - b.eventSeq);
  }

  async recordAttempt(seq: number, owner: string, a: DeliveryAttempt): Promise<boolean> {
    const result = await this.pool.query(SQL.recordAttempt, [a.status, a.nextAttemptAt, a.at, a.responseStatus, a.responseBody, a.error, seq, owner]);
    return (result.rowCount ?? 0) > 0;
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
    if (owner === undefined) await this.pool.query(SQL.releaseLeases);
    else await this.pool.query(SQL.releaseLeasesOf, [owner]);
  }

  async prune(beforeMs: number): Promise<number> {
    return (await this.pool.query(SQL.prune, [beforeMs])).rowCount ?? 0;
  }
}
