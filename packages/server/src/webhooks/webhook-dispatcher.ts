import { createHash } from 'node:crypto';
import type { ClaimRequest, NewWebhookDelivery, OutboxEvent, RecordedAttempt, WebhookDeliveryRecord, WebhookStore, WebhookSubscriptionRecord } from '../store/webhooks/webhook-store.js';
import { subjectOf, type EventSubjectSources } from './event-subjects.js';
import { nextDelayMs, parseRetryAfter } from './retry-schedule.js';
import { changeTypes, eventTypesOf, payloadOf, wants } from './webhook-events.js';
import { signatureHeader } from './webhook-secret.js';
import { sendWebhook } from './webhook-sender.js';
import { SlotShares, type AttemptEnd } from './slot-shares.js';
import { WaitingDeliveries } from './waiting-deliveries.js';

export interface WebhookDispatcherOptions {
  store: WebhookStore;
  sources: EventSubjectSources;
  /** This server's name on the deliveries it leases. */
  owner: string;
  sharedRuns: boolean;
  allowPrivate: boolean;
  retryDelaysMs: readonly number[];
  /** How often to look for events and due deliveries while a subscription is enabled. */
  pollMs: number;
  /** How long a lease on a delivery lasts: more than an attempt can take. */
  leaseMs: number;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Attempts in flight at once, shared among principals and subscriptions (`SlotShares`). */
  concurrency: number;
  /** How often to claim with nothing known to be due (deliveries another server fanned out and left); 250 ms by default. */
  claimCheckMs?: number;
  log: (line: string) => void;
}

/** Events turned into deliveries per transaction; a fuller outbox goes on at once in the next tick, after the claims. */
const FAN_OUT_BATCH = 200;
/** Finished deliveries are kept this long for the delivery log. */
const KEEP_FINISHED_MS = 7 * 24 * 3600_000;
/** How often the list of subscriptions is read again while none is enabled. */
const IDLE_CHECK_MS = 1000;
const ACTIVE_CHECK_MS = 250;
/** How long a change waits for others to join its fan-out. */
const CHANGE_GATHER_MS = 2;

/**
 * The same message id for the same event, subscription and type on every server that fans it
 * out. It starts with the event's time, so ids stored one after another land at the end of
 * their index rather than on a page of their own each; the rest is a hash.
 */
const messageId = (event: OutboxEvent, subscription: string, type: string) => {
  const at = Date.parse(event.at);
  const time = (Number.isFinite(at) ? at : 0).toString(36).padStart(9, '0');
  return `msg_${time}${createHash('sha256').update(`${event.seq}/${subscription}/${type}`).digest('base64url').slice(0, 17)}`;
};

/**
 * Delivers webhooks: turns the outbox the database fills into one delivery per subscription
 * and type, then sends each at least once, in order per run (the next of a run waits for
 * the one before), retrying on the schedule. Several servers may share the store: a
 * delivery is leased to one at a time, and the lease of a server that died runs out.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Whether the last tick failed, so an outage is logged once. */
  private failing = false;
  private tickDue = false;
  private again = false;
  private stopped = true;
  private readonly inFlight = new Map<number, Promise<void>>();
  private enabled: WebhookSubscriptionRecord[] = [];
  /** Attempts made and not yet recorded: recorded together, in one transaction. */
  private toRecord: { attempt: RecordedAttempt; settle: (error?: unknown) => void }[] = [];
  private recording = false;
  private subscriptionsReadAt = 0;
  /** Subscriptions read in this tick, after its outbox read: the claim of the same tick signs with them. */
  private readThisTick: WebhookSubscriptionRecord[] | undefined;
  /** Whether a claim may find something: a fan-out, an attempt ended, a wake, or a restart. */
  private claimWanted = true;
  /** Whether the outbox may hold events: a change was signalled, a wake, a full batch, or a restart. */
  private outboxWanted = true;
  /** When the outbox is next read with no change signalled: the poll interval. */
  private outboxDueAt = 0;
  /** What may wait to be claimed once an attempt is answered. */
  private readonly waiting = new WaitingDeliveries();
  /** When a claim is next due with nothing known to be waiting: the check interval. */
  private claimDueAt = 0;
  /** The earliest retry this server scheduled and has not claimed since. */
  private retryDueAt = Number.POSITIVE_INFINITY;
  private prunedAt = 0;
  /** Which principal and subscription each slot may go to. */
  private readonly shares: SlotShares;
  /** Whether the last claim left due deliveries out for their shares (skipped, or not chosen). */
  private leftOut = false;
  /** Whether its choice left some out: a claim at once then leaves out the shares it filled. */
  private choiceLeftOut = false;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.shares = new SlotShares(options.concurrency);
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Looks now: a subscription changed, a redelivery or a test was asked for. */
  wake(): void {
    this.subscriptionsReadAt = 0;
    this.claimWanted = true;
    this.outboxWanted = true;
    if (!this.stopped) this.schedule(0);
  }

  /**
   * A run changed (here, or on another server that signalled it), to `state` when known:
   * where an enabled subscription wants what the change reports, its outbox event is
   * committed by now, so it is fanned out within a moment rather than at the next poll.
   * The moment gathers the changes of a burst into one tick.
   */
  changed(state: string | undefined): void {
    if (this.stopped || this.enabled.length === 0) return;
    const types = state === undefined ? undefined : changeTypes(state);
    if (types && !this.enabled.some((s) => types.some((t) => s.eventTypes.includes(t)))) return;
    this.outboxWanted = true;
    if (this.running) this.again = true;
    else if (!this.tickDue) this.schedule(CHANGE_GATHER_MS, true);
  }

  /** Stops looking; attempts in flight get `graceMs` to finish (a lease left behind runs out). */
  async stop(graceMs = 1000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.inFlight.values()), new Promise((resolve) => (timeout = setTimeout(resolve, graceMs)))]);
    clearTimeout(timeout);
  }

  /** A tick at once, unless one is already on its way. */
  private soon(): void {
    this.claimWanted = true;
    if (this.running) this.again = true;
    else if (!this.tickDue) this.schedule(0);
  }

  /** `soon`: this tick is on its way, so a request for one at once need not move it. */
  private schedule(ms: number, soon = ms === 0): void {
    this.tickDue = soon;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    this.tickDue = false;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.readThisTick = undefined;
    try {
      await this.refreshSubscriptions();
      if (this.enabled.length || this.inFlight.size) {
        if (this.outboxWanted || Date.now() >= this.outboxDueAt) await this.fanOut();
        if (this.claimWanted || Date.now() >= Math.min(this.claimDueAt, this.retryDueAt)) await this.claimAndSend();
      }
      await this.prune();
      this.failing = false;
    } catch (error) {
      // Once per outage, not once per tick (the store says when the database is back).
      if (!this.failing) this.options.log(`Webhook delivery could not proceed: ${(error as Error).message}; retrying.`);
      this.failing = true;
    } finally {
      this.running = false;
    }
    if (this.stopped) return;
    const idle = this.enabled.length === 0;
    this.schedule(this.again ? 0 : idle ? IDLE_CHECK_MS : this.options.pollMs);
    this.again = false;
  }

  private async refreshSubscriptions(): Promise<void> {
    const now = Date.now();
    // Read again a few times a second while some are enabled (a change from another server shows soon), else once a second.
    if (now - this.subscriptionsReadAt < (this.enabled.length ? ACTIVE_CHECK_MS : IDLE_CHECK_MS)) return;
    await this.readSubscriptions();
  }

  /** Every subscription, enabled or not; keeps the enabled ones. */
  private async readSubscriptions(): Promise<WebhookSubscriptionRecord[]> {
    const readAt = Date.now();
    const all = await this.options.store.listSubscriptions();
    this.enabled = all.filter((s) => s.enabled);
    this.shares.subscriptions(this.enabled);
    this.subscriptionsReadAt = readAt;
    this.readThisTick = all;
    return all;
  }

  /** Makes the deliveries of the oldest events waiting in the outbox; asks for the next tick at once when more wait. */
  private async fanOut(): Promise<void> {
    const { store, sources, sharedRuns } = this.options;
    // Cleared before the read: a change signalled meanwhile asks for the next.
    this.outboxWanted = false;
    this.outboxDueAt = Date.now() + this.options.pollMs;
    const events = await store.outbox(FAN_OUT_BATCH);
    if (events.length === 0) return;
    // Read after the events: every subscription committed before one of them is seen (a
    // list read earlier, here or on another server, may predate a subscription and lose its event).
    await this.readSubscriptions();
    const subscriptions = this.enabled;
    const deliveries: NewWebhookDelivery[] = [];
    const now = Date.now();
    for (const event of events) {
      const types = eventTypesOf(event);
      if (!subscriptions.some((s) => types.some((t) => s.eventTypes.includes(t)))) continue;
      const subject = await subjectOf(event, sources);
      // One body per type and mode, shared by every subscription that gets it.
      const payloads = new Map<string, string>();
      for (const type of types) {
        for (const subscription of subscriptions) {
          if (!wants(subscription, type, event, subject, sharedRuns)) continue;
          const key = `${type}/${subscription.thin}`;
          let payload = payloads.get(key);
          if (payload === undefined) payloads.set(key, (payload = payloadOf(type, event, subject, subscription.thin)));
          deliveries.push({
            id: messageId(event, subscription.id, type),
            subscriptionId: subscription.id,
            // Two types of one event keep their order: the change, then the ending.
            eventSeq: event.seq * 2 + (type === types[0] ? 0 : 1),
            eventType: type,
            orderKey: event.runId ?? `schedule:${event.subjectId ?? ''}`,
            payload,
            nextAttemptAt: now,
            createdAt: new Date(now).toISOString(),
          });
        }
      }
    }
    if (deliveries.length) this.claimWanted = true;
    // The claim these deliveries call for is made in the fan-out's transaction: one commit for both.
    const claim = deliveries.length ? this.claimRequest() : undefined;
    const claimed = await store.fanOut(
      events.map((e) => e.seq),
      deliveries,
      claim,
    );
    if (events.length === FAN_OUT_BATCH) {
      this.outboxWanted = true;
      this.again = true;
    }
    if (claim) this.claimed(claimed, claim.limit);
    this.waiting.fannedOut(deliveries, claimed);
    await this.send(claimed);
  }

  private async claimAndSend(): Promise<void> {
    const claim = this.claimRequest();
    if (!claim) return;
    const claimed = await this.options.store.claim(claim);
    this.claimed(claimed, claim.limit);
    await this.send(claimed);
  }

  /**
   * A claim for up to `limit` returned `claimed`. Where its choice left deliveries out for
   * shares it filled, with slots still free, another claim follows at once, leaving those out.
   */
  private claimed(claimed: readonly WebhookDeliveryRecord[], limit: number): void {
    this.waiting.claimed(claimed, limit, this.inFlight.size, this.leftOut);
    if (this.choiceLeftOut && claimed.length > 0 && claimed.length < limit) {
      this.claimWanted = true;
      this.again = true;
    }
  }

  /** A claim for the free slots, if any, noted as made: nothing is known to wait until the check interval or a retry. */
  private claimRequest(): ClaimRequest | undefined {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) return undefined;
    const now = Date.now();
    this.claimWanted = false;
    this.waiting.claiming();
    this.claimDueAt = now + (this.options.claimCheckMs ?? 250);
    if (this.retryDueAt <= now) this.retryDueAt = Number.POSITIVE_INFINITY;
    const skipSubscriptions = this.shares.full();
    this.leftOut = skipSubscriptions.length > 0;
    this.choiceLeftOut = false;
    const choose = (due: readonly WebhookDeliveryRecord[]) => {
      const chosen = this.shares.choose(due, free);
      this.choiceLeftOut = chosen.length < due.length;
      this.leftOut ||= this.choiceLeftOut;
      return chosen;
    };
    return { owner: this.options.owner, now, leaseMs: this.options.leaseMs, limit: free, skipSubscriptions, choose };
  }

  /** Starts an attempt of each delivery claimed. */
  private async send(claimed: readonly WebhookDeliveryRecord[]): Promise<void> {
    if (claimed.length === 0) return;
    // Read after the outbox (this tick) or the claim: a secret rotated a moment ago (here or on
    // another server) signs them; the one a rotation replaces still signs through its overlap.
    let subscriptions = new Map((this.readThisTick ?? (await this.readSubscriptions())).map((s) => [s.id, s]));
    // A subscription made since that read (a test delivery of a new one): read again.
    if (claimed.some((d) => !subscriptions.has(d.subscriptionId))) subscriptions = new Map((await this.readSubscriptions()).map((s) => [s.id, s]));
    for (const delivery of claimed) {
      this.shares.started(delivery.subscriptionId);
      const attempt = this.attempt(delivery, subscriptions.get(delivery.subscriptionId)).then((end) => {
        this.shares.ended(delivery.subscriptionId, end);
        this.inFlight.delete(delivery.seq);
        // The next delivery of the same run may be due now, or one the slots were full for;
        // claims are gathered while most slots are busy.
        this.waiting.answered(delivery);
        if (!this.stopped && this.waiting.any && (this.inFlight.size === 0 || this.inFlight.size <= this.options.concurrency / 2)) this.soon();
      });
      this.inFlight.set(delivery.seq, attempt);
    }
  }

  /** Makes one attempt and records it; says how it ended, for the shares of the slots. */
  private async attempt(delivery: WebhookDeliveryRecord, subscription: WebhookSubscriptionRecord | undefined): Promise<AttemptEnd> {
    const { log } = this.options;
    let end: AttemptEnd = 'failed';
    try {
      if (!subscription) return end;
      const now = Date.now();
      const timestamp = Math.floor(now / 1000);
      const headers = {
        'webhook-id': delivery.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(subscription, delivery.id, timestamp, delivery.payload, now),
      };
      const result = await sendWebhook(subscription.url, headers, delivery.payload, {
        allowPrivate: this.options.allowPrivate,
        timeoutMs: this.options.timeoutMs,
        maxResponseBytes: this.options.maxResponseBytes,
      });
      end = result.status !== null ? 'answered' : result.timedOut ? 'timed out' : 'failed';
      const at = new Date();
      const ok = result.status !== null && result.status >= 200 && result.status < 300;
      const gone = result.status === 410;
      const attempts = delivery.attempts + 1;
      const delay = ok || gone ? undefined : nextDelayMs(attempts, this.options.retryDelaysMs, parseRetryAfter(result.retryAfter, at.getTime()));
      if (delay !== undefined) this.retryDueAt = Math.min(this.retryDueAt, at.getTime() + delay);
      await this.record({
        seq: delivery.seq,
        status: ok ? 'delivered' : delay === undefined ? 'failed' : 'pending',
        nextAttemptAt: delay === undefined ? null : at.getTime() + delay,
        at: at.toISOString(),
        responseStatus: result.status,
        responseBody: result.body,
        error: result.error ?? (ok ? null : result.status !== null && result.status >= 300 && result.status < 400 ? 'Redirects are not followed.' : null),
      });
      if (gone) await this.disable(subscription.id, `The receiver answered 410 Gone at ${at.toISOString()}.`);
    } catch (error) {
      log(`Webhook delivery ${delivery.id} could not be attempted: ${(error as Error).message}`);
    }
    return end;
  }

  /** Records an attempt with the others made meanwhile, in one transaction; settles once it is stored (or could not be). */
  private record(attempt: RecordedAttempt): Promise<void> {
    return new Promise((resolve, reject) => {
      this.toRecord.push({ attempt, settle: (error) => (error === undefined ? resolve() : reject(error as Error)) });
      if (this.recording) return;
      this.recording = true;
      // After the answers already in: they join this batch.
      setImmediate(() => void this.recordBatches());
    });
  }

  private async recordBatches(): Promise<void> {
    while (this.toRecord.length) {
      const batch = this.toRecord.splice(0);
      try {
        // A lease lost (ran out, taken over) is not an error: the other holder records its own attempt.
        await this.options.store.recordAttempts(
          this.options.owner,
          batch.map((b) => b.attempt),
        );
        for (const b of batch) b.settle();
      } catch (error) {
        for (const b of batch) b.settle(error ?? new Error('The attempt could not be recorded.'));
      }
    }
    this.recording = false;
  }

  /** A 410 says the receiver is gone for good: the subscription stops until its owner enables it again. */
  private async disable(id: string, reason: string): Promise<void> {
    const current = await this.options.store.getSubscription(id);
    if (!current?.enabled) return;
    await this.options.store.saveSubscription({ ...current, enabled: false, disabledReason: reason, updatedAt: new Date().toISOString() });
    this.enabled = this.enabled.filter((s) => s.id !== id);
    this.options.log(`Webhook ${id} is disabled: ${reason}`);
  }

  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.prunedAt < 600_000) return;
    this.prunedAt = now;
    await this.options.store.prune(now - KEEP_FINISHED_MS);
  }
}
