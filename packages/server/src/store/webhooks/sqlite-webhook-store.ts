import type Database from 'better-sqlite3';
import { sqliteDialect } from '../sql-dialect.js';
import type { SqliteWriteBatch } from '../sqlite-write-batch.js';
import { insertStatement, updateStatement, type Row } from '../table-description.js';
import { deliveryLeaseClaim, KEEP_DELIVERY_MADE, leasedDeliveries, WEBHOOK_SQL as SQL } from './webhook-statements.js';
import { SqliteLeases } from '../sqlite-leases.js';
import {
  DELIVERIES_TABLE,
  PAYLOADS_TABLE,
  SUBSCRIPTION_SAVED_COLUMNS,
  SUBSCRIPTIONS_TABLE,
  toDelivery,
  toOutboxEvent,
  toSubscription,
} from './webhook-tables.js';
import type {
  ClaimRequest,
  NewWebhookDelivery,
  OutboxEvent,
  RecordedAttempt,
  WebhookDeliveryRecord,
  WebhookStore,
  WebhookSubscriptionRecord,
} from './webhook-store.js';

const INSERT_SUBSCRIPTION = insertStatement(SUBSCRIPTIONS_TABLE, sqliteDialect);
const SAVE_SUBSCRIPTION = updateStatement(SUBSCRIPTIONS_TABLE, sqliteDialect, SUBSCRIPTION_SAVED_COLUMNS, 'id');
const INSERT_DELIVERY = insertStatement(DELIVERIES_TABLE, sqliteDialect, KEEP_DELIVERY_MADE);
const INSERT_PAYLOAD = insertStatement(PAYLOADS_TABLE, sqliteDialect);

/**
 * Webhooks in the run store's SQLite file. One server owns the file (its data directory is
 * locked), so the leases on deliveries live in memory (`SqliteLeases`): a claim is a read, not
 * a write that rewrites each row it takes, and a restart drops them as a fresh server must.
 */
export class SqliteWebhookStore implements WebhookStore {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly leases: SqliteLeases<WebhookDeliveryRecord>;
  private readonly fanOutNow: (events: readonly number[], deliveries: readonly NewWebhookDelivery[]) => void;
  private readonly deleteNow: (id: string) => boolean;
  private readonly recordNow: (owner: string, attempts: readonly RecordedAttempt[]) => boolean[];

  /** `writes`: the run store's, so the records of attempts join the other writes of their turn in one commit. */
  constructor(
    private readonly db: Database.Database,
    private readonly writes: SqliteWriteBatch,
  ) {
    this.leases = new SqliteLeases(db, leasedDeliveries('sqlite'), toDelivery);
    this.fanOutNow = db.transaction((events: readonly number[], deliveries: readonly NewWebhookDelivery[]) => {
      // One payload row per body: the subscriptions an event goes to share theirs.
      const payloads = new Map<string, number>();
      for (const delivery of deliveries) {
        let payloadSeq = payloads.get(delivery.payload);
        if (payloadSeq === undefined) {
          payloadSeq = Number(this.statement(INSERT_PAYLOAD.sql).run(...INSERT_PAYLOAD.values(delivery)).lastInsertRowid);
          payloads.set(delivery.payload, payloadSeq);
        }
        this.statement(INSERT_DELIVERY.sql).run(...INSERT_DELIVERY.values({ delivery, payloadSeq }));
      }
      for (const seq of events) this.statement(SQL.deleteOutbox).run(seq);
    });
    this.recordNow = db.transaction((owner: string, attempts: readonly RecordedAttempt[]) =>
      attempts.map((a) => {
        // A lease lost (ran out and taken again, or a redelivery) leaves the attempt to its new holder.
        if (!this.leases.holds(owner, String(a.seq))) return false;
        return this.statement(SQL.recordAttempt).run(a.status, a.nextAttemptAt, a.at, a.responseStatus, a.responseBody, a.error, a.seq).changes > 0;
      }),
    );
    this.deleteNow = db.transaction((id: string) => {
      this.statement(SQL.sqlite.deletePayloadsOf).run(id, id);
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
    this.statement(INSERT_SUBSCRIPTION.sql).run(...INSERT_SUBSCRIPTION.values(subscription));
  }

  async getSubscription(id: string): Promise<WebhookSubscriptionRecord | undefined> {
    const row = this.statement(SQL.getSubscription).get(id) as Row | undefined;
    return row ? toSubscription(row) : undefined;
  }

  async listSubscriptions(): Promise<WebhookSubscriptionRecord[]> {
    return (this.statement(SQL.listSubscriptions).all() as Row[]).map(toSubscription);
  }

  async saveSubscription(subscription: WebhookSubscriptionRecord): Promise<boolean> {
    return this.statement(SAVE_SUBSCRIPTION.sql).run(...SAVE_SUBSCRIPTION.values(subscription)).changes > 0;
  }

  async deleteSubscription(id: string): Promise<boolean> {
    return this.deleteNow(id);
  }

  async outbox(limit: number): Promise<OutboxEvent[]> {
    return (this.statement(SQL.outbox).all(limit) as Row[]).map(toOutboxEvent);
  }

  async fanOut(events: readonly number[], deliveries: readonly NewWebhookDelivery[], claim?: ClaimRequest): Promise<WebhookDeliveryRecord[]> {
    // A commit of its own, not one with the turn's write batch: a burst's deliveries go out a turn sooner.
    this.fanOutNow(events, deliveries);
    // Once committed: a claim here is a read.
    return claim ? this.claimNow(claim) : [];
  }

  async addDelivery(delivery: NewWebhookDelivery): Promise<void> {
    this.statement(INSERT_DELIVERY.sql).run(...INSERT_DELIVERY.values({ delivery }));
  }

  async claim(request: ClaimRequest): Promise<WebhookDeliveryRecord[]> {
    return this.claimNow(request);
  }

  private claimNow(request: ClaimRequest): WebhookDeliveryRecord[] {
    return this.leases.claimNow(deliveryLeaseClaim(request, 1)).sort((a, b) => a.eventSeq - b.eventSeq);
  }

  async recordAttempts(owner: string, attempts: readonly RecordedAttempt[]): Promise<boolean[]> {
    const recorded = await this.writes.run(() => this.recordNow(owner, attempts));
    // Only once committed: a batch rolled back is made again, under the same leases.
    this.leases.releaseNow(
      undefined,
      attempts.filter((_, i) => recorded[i]).map((a) => String(a.seq)),
    );
    return recorded;
  }

  async deliveries(subscriptionId: string, limit: number, beforeSeq = Number.MAX_SAFE_INTEGER): Promise<WebhookDeliveryRecord[]> {
    return (this.statement(SQL.sqlite.deliveries).all(subscriptionId, beforeSeq, limit) as Row[]).map(toDelivery);
  }

  async getDelivery(id: string): Promise<WebhookDeliveryRecord | undefined> {
    const row = this.statement(SQL.sqlite.getDelivery).get(id) as Row | undefined;
    return row ? toDelivery(row) : undefined;
  }

  async redeliver(id: string, now: number): Promise<boolean> {
    const row = this.statement(SQL.redeliver).get(now, id) as Row | undefined;
    if (row) this.leases.releaseNow(undefined, [String(row['seq'])]);
    return row !== undefined;
  }

  async releaseLeases(owner?: string): Promise<void> {
    this.leases.releaseNow(owner);
    if (owner === undefined) this.statement(SQL.releaseFileLeases).run();
    else this.statement(SQL.releaseFileLeasesOf).run(owner);
  }

  async prune(beforeMs: number): Promise<number> {
    const pruned = this.statement(SQL.prune).run(beforeMs).changes;
    // Payloads no delivery refers to any more (a subscription's deleted ones go with it).
    this.statement(SQL.sqlite.prunePayloads).run(beforeMs);
    return pruned;
  }
}
