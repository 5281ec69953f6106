/** A subscription as stored; `ownerUid` null for one the operator declared (it sees every run). */
export interface WebhookSubscriptionRecord {
  id: string;
  ownerUid: string | null;
  url: string;
  eventTypes: string[];
  filter: { states?: string[] | undefined; environment_id?: string | undefined; schedule_id?: string | undefined };
  thin: boolean;
  enabled: boolean;
  disabledReason: string | null;
  description: string | null;
  secret: string;
  previousSecret: string | null;
  /** Epoch milliseconds until which the previous secret still signs. */
  previousSecretExpiresAt: number | null;
  /** Declared in the configuration file (kept in step with it at start-up). */
  declared: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A change the database recorded for webhooks, in the transaction of the change. */
export interface OutboxEvent {
  seq: number;
  kind: 'run.created' | 'run.state_changed' | 'run.artifact_created' | 'run.followup_received' | 'schedule.fired' | 'schedule.failed';
  runId: string | null;
  /** The artifact, follow-up or schedule concerned. */
  subjectId: string | null;
  state: string | null;
  previousState: string | null;
  at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One message to one subscription; `id` is its `webhook-id`, the same on every attempt. */
export interface NewWebhookDelivery {
  id: string;
  subscriptionId: string;
  eventSeq: number;
  eventType: string;
  /** Deliveries of one key (a run, a schedule) go out one at a time, in `eventSeq` order. */
  orderKey: string;
  payload: string;
  nextAttemptAt: number;
  createdAt: string;
}

export interface WebhookDeliveryRecord extends NewWebhookDelivery {
  seq: number;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastResponse: string | null;
  lastError: string | null;
  /** From a claim: whether a later delivery of its order key was pending, to claim once this one is answered. */
  hasNext: boolean;
}

/** How one attempt went, and what comes next. */
export interface DeliveryAttempt {
  status: DeliveryStatus;
  /** When to try again, for `pending`. */
  nextAttemptAt: number | null;
  at: string;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

/** An attempt of the delivery numbered `seq`. */
export interface RecordedAttempt extends DeliveryAttempt {
  seq: number;
}

/** What `claim` takes: who leases, as of when, for how long, and at most how many. */
export interface ClaimRequest {
  owner: string;
  now: number;
  leaseMs: number;
  limit: number;
  /** Subscriptions whose deliveries are left out (their share of the slots is taken). */
  skipSubscriptions?: readonly string[];
  /**
   * Which of the due deliveries (oldest first, up to `claimScan`) to lease, at most `limit`;
   * without it, the oldest `limit`.
   */
  choose?: (due: readonly WebhookDeliveryRecord[]) => WebhookDeliveryRecord[];
}

/**
 * How many due deliveries a claim reads: a quarter more than its limit when it chooses among
 * them, room to pass over some for their shares (a claim that left slots free for them is
 * followed by another that skips those shares).
 */
export const claimScan = (request: ClaimRequest): number => (request.choose ? request.limit + Math.ceil(request.limit / 4) : request.limit);

/**
 * Subscriptions, the outbox the database fills, and the deliveries made from it. Several
 * servers may share it (PostgreSQL): a delivery is leased by one at a time, and a lease
 * left by a dead server expires for another to take.
 */
export interface WebhookStore {
  createSubscription(subscription: WebhookSubscriptionRecord): Promise<void>;
  getSubscription(id: string): Promise<WebhookSubscriptionRecord | undefined>;
  listSubscriptions(): Promise<WebhookSubscriptionRecord[]>;
  /** Replaces the stored fields; false when there is no such subscription. */
  saveSubscription(subscription: WebhookSubscriptionRecord): Promise<boolean>;
  /** Removes it and its deliveries. */
  deleteSubscription(id: string): Promise<boolean>;
  /** The oldest events not yet turned into deliveries. */
  outbox(limit: number): Promise<OutboxEvent[]>;
  /**
   * Stores the deliveries made from `events` (an id stored before is kept) and removes the
   * events, in one transaction; with `claim`, then claims (as `claim` does) and returns what
   * it claimed: on PostgreSQL in that transaction, one commit for both; on SQLite, whose
   * claims are reads, after it.
   */
  fanOut(events: readonly number[], deliveries: readonly NewWebhookDelivery[], claim?: ClaimRequest): Promise<WebhookDeliveryRecord[]>;
  /** Adds one delivery now (a test event). */
  addDelivery(delivery: NewWebhookDelivery): Promise<void>;
  /**
   * Leases up to `limit` deliveries that are due, of enabled subscriptions not skipped, each
   * the oldest pending one of its order key (those `choose` picks, when given), to `owner`
   * until `now + leaseMs`.
   */
  claim(request: ClaimRequest): Promise<WebhookDeliveryRecord[]>;
  /**
   * Records attempts of deliveries `owner` holds the leases of, in one transaction; for each,
   * in the order given, false when its lease was lost.
   */
  recordAttempts(owner: string, attempts: readonly RecordedAttempt[]): Promise<boolean[]>;
  /** The subscription's deliveries, newest first, before `beforeSeq` when given. */
  deliveries(subscriptionId: string, limit: number, beforeSeq?: number): Promise<WebhookDeliveryRecord[]>;
  getDelivery(id: string): Promise<WebhookDeliveryRecord | undefined>;
  /** Puts a delivery back as pending, due at `now`. */
  redeliver(id: string, now: number): Promise<boolean>;
  /** Drops the leases `owner` holds (a restart of a server alone on its database passes none: every lease). */
  releaseLeases(owner?: string): Promise<void>;
  /** Removes finished deliveries created before `beforeMs`. */
  prune(beforeMs: number): Promise<number>;
}
