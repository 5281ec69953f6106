import type Database from 'better-sqlite3';
import { sqliteDialect } from './sql-dialect.js';
import { toDelivery, toOutboxEvent, toSubscription, subscriptionValues } from './webhook-rows.js';
import { deliveryValues, WEBHOOK_SQL as SQL } from './webhook-statements.js';
import type {
  ClaimRequest,
  NewWebhookDelivery,
  OutboxEvent,
  RecordedAttempt,
  WebhookDeliveryRecord,
  WebhookStore,
  WebhookSubscriptionRecord,
} from './webhook-store.js';

type Row = Record<string, unknown>;

/** Webhooks in the run store's SQLite file (one server owns it). */
export class SqliteWebhookStore implements WebhookStore {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly fanOutNow: (events: readonly number[], deliveries: readonly NewWebhookDelivery[], claim?: ClaimRequest) => WebhookDeliveryRecord[];
  private readonly deleteNow: (id: string) => boolean;
  private readonly recordNow: (owner: string, attempts: readonly RecordedAttempt[]) => boolean[];

  constructor(private readonly db: Database.Database) {
    this.fanOutNow = db.transaction((events: readonly number[], deliveries: readonly NewWebhookDelivery[], claim?: ClaimRequest) => {
      for (const delivery of deliveries) this.statement(SQL.insertDelivery).run(...deliveryValues(delivery));
      for (const seq of events) this.statement(SQL.deleteOutbox).run(seq);
      return claim ? this.claimNow(claim) : [];
    });
    this.recordNow = db.transaction((owner: string, attempts: readonly RecordedAttempt[]) =>
      attempts.map((a) => this.statement(SQL.recordAttempt).run(a.status, a.nextAttemptAt, a.at, a.responseStatus, a.responseBody, a.error, a.seq, owner).changes > 0),
    );
    this.deleteNow = db.transaction((id: string) => {
      this.statement(SQL.deleteDeliveriesOf).run(id);
      return this.statement(SQL.deleteSubscription).run(id).changes > 0;
    });
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  async createSubscription(subscription: WebhookSubscriptionRecord): Promise<void> {
    this.statement(SQL.insertSubscription).run(...subscriptionValues(subscription, sqliteDialect.boolean));
  }

  async getSubscription(id: string): Promise<WebhookSubscriptionRecord | undefined> {
    const row = this.statement(SQL.getSubscription).get(id) as Row | undefined;
    return row ? toSubscription(row) : undefined;
  }

  async listSubscriptions(): Promise<WebhookSubscriptionRecord[]> {
    return (this.statement(SQL.listSubscriptions).all() as Row[]).map(toSubscription);
  }

  async saveSubscription(subscription: WebhookSubscriptionRecord): Promise<boolean> {
    return this.statement(SQL.saveSubscription).run(...subscriptionValues(subscription, sqliteDialect.boolean), subscription.id).changes > 0;
  }

  async deleteSubscription(id: string): Promise<boolean> {
    return this.deleteNow(id);
  }

  async outbox(limit: number): Promise<OutboxEvent[]> {
    return (this.statement(SQL.outbox).all(limit) as Row[]).map(toOutboxEvent);
  }

  async fanOut(events: readonly number[], deliveries: readonly NewWebhookDelivery[], claim?: ClaimRequest): Promise<WebhookDeliveryRecord[]> {
    return this.fanOutNow(events, deliveries, claim);
  }

  async addDelivery(delivery: NewWebhookDelivery): Promise<void> {
    this.statement(SQL.insertDelivery).run(...deliveryValues(delivery));
  }

  async claim(request: ClaimRequest): Promise<WebhookDeliveryRecord[]> {
    return this.claimNow(request);
  }

  private claimNow({ owner, now, leaseMs, limit }: ClaimRequest): WebhookDeliveryRecord[] {
    const rows = this.statement(SQL.claim('')).all(owner, now + leaseMs, now, now, 1, limit) as Row[];
    return rows.map(toDelivery).sort((a, b) => a.eventSeq - b.eventSeq);
  }

  async recordAttempts(owner: string, attempts: readonly RecordedAttempt[]): Promise<boolean[]> {
    return this.recordNow(owner, attempts);
  }

  async deliveries(subscriptionId: string, limit: number, beforeSeq = Number.MAX_SAFE_INTEGER): Promise<WebhookDeliveryRecord[]> {
    return (this.statement(SQL.deliveries).all(subscriptionId, beforeSeq, limit) as Row[]).map(toDelivery);
  }

  async getDelivery(id: string): Promise<WebhookDeliveryRecord | undefined> {
    const row = this.statement(SQL.getDelivery).get(id) as Row | undefined;
    return row ? toDelivery(row) : undefined;
  }

  async redeliver(id: string, now: number): Promise<boolean> {
    return this.statement(SQL.redeliver).run(now, id).changes > 0;
  }

  async releaseLeases(owner?: string): Promise<void> {
    if (owner === undefined) this.statement(SQL.releaseLeases).run();
    else this.statement(SQL.releaseLeasesOf).run(owner);
  }

  async prune(beforeMs: number): Promise<number> {
    return this.statement(SQL.prune).run(beforeMs).changes;
  }
}
