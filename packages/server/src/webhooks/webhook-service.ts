import { randomBytes } from 'node:crypto';
import type { RunCreatorInfo } from '@agent-runs/core/contract';
import {
  WEBHOOK_EVENT_TYPES,
  WebhookCreateRequestSchema,
  WebhookRotateRequestSchema,
  WebhookUpdateRequestSchema,
  type WebhookDelivery,
  type WebhookSubscription,
} from '@agent-runs/core/webhooks';
import { ConflictError, NotFoundError } from '../domain/domain-errors.js';
import { invalidField, invalidInput } from '../domain/invalid-request-input.js';
import type { ServerClock } from '../domain/server-clock.js';
import type { WebhookStore, WebhookSubscriptionRecord } from '../store/webhooks/webhook-store.js';
import { timeOrderedId } from '../store/time-ordered-id.js';
import { checkWebhookUrl, UnsafeWebhookUrlError } from './address-safety.js';
import { declaredWebhookName } from './declared-webhooks.js';
import { toDeliveryItem, toWebhookItem } from './to-webhook-item.js';
import { newWebhookSecret } from './webhook-secret.js';

/** How long a rotated-out secret keeps signing, unless the rotation says otherwise. */
const DEFAULT_OVERLAP_SECONDS = 24 * 3600;
/** Subscriptions one principal may hold. */
const MAX_SUBSCRIPTIONS_PER_OWNER = 100;

/** A fresh `webhook-id`: Standard Webhooks' `msg_` prefix and random letters. */
export const newMessageId = () => `msg_${randomBytes(16).toString('base64url')}`;

export interface WebhookServiceOptions {
  store: WebhookStore;
  clock: ServerClock;
  /** Loopback and private addresses (and http) allowed: development and tests. */
  allowPrivate: boolean;
  /** Every key sees every subscription and every run's events. */
  sharedRuns: boolean;
  /** A delivery is due: the dispatcher looks now rather than at its next tick. */
  wake: () => void;
}

/**
 * Subscriptions per principal: a key sees and changes only its own (every one with
 * `--shared-runs`), and receives only its own runs' events. The secret is shown once, when
 * made or rotated. Those the configuration file declares are shown, never changed here.
 */
export class WebhookService {
  constructor(private readonly options: WebhookServiceOptions) {}

  /** Its owner's, every key's for one the operator declared for all runs, or every one with `--shared-runs`. */
  private visible(s: WebhookSubscriptionRecord, caller: RunCreatorInfo): boolean {
    return this.options.sharedRuns || (s.ownerUid !== null && s.ownerUid === (caller.uid ?? '')) || (s.declared && s.ownerUid === null);
  }

  private async getOrThrow(id: string, caller: RunCreatorInfo): Promise<WebhookSubscriptionRecord> {
    const found = await this.options.store.getSubscription(id);
    if (!found || !this.visible(found, caller)) throw new NotFoundError(`No webhook with id "${id}".`);
    return found;
  }

  /** One a key may change: not one the configuration file declares. */
  private async ownedOrThrow(id: string, caller: RunCreatorInfo): Promise<WebhookSubscriptionRecord> {
    const found = await this.getOrThrow(id, caller);
    if (found.declared) {
      throw new ConflictError(
        `Webhook ${id} is operator-managed: it is declared as webhooks.${declaredWebhookName(id)} in the server's configuration file; change or remove it there and restart the server.`,
      );
    }
    return found;
  }

  /** Deliveries carry runs: those of a webhook declared for every run are shown only where every run is (`--shared-runs`). */
  private async withDeliveriesOrThrow(id: string, caller: RunCreatorInfo): Promise<WebhookSubscriptionRecord> {
    const found = await this.getOrThrow(id, caller);
    if (found.ownerUid === null && !this.options.sharedRuns) {
      throw new NotFoundError(`Webhook ${id} gets every principal's runs: its deliveries are shown only on a server run with --shared-runs.`);
    }
    return found;
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await checkWebhookUrl(url, this.options.allowPrivate);
    } catch (error) {
      if (error instanceof UnsafeWebhookUrlError) throw invalidField('url', error.message);
      throw error;
    }
  }

  async create(body: unknown, caller: RunCreatorInfo): Promise<WebhookSubscription> {
    const parsed = WebhookCreateRequestSchema.safeParse(body ?? null);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const request = parsed.data;
    await this.checkUrl(request.url);
    const owner = caller.uid ?? '';
    const mine = (await this.options.store.listSubscriptions()).filter((s) => s.ownerUid === owner && !s.declared);
    if (mine.length >= MAX_SUBSCRIPTIONS_PER_OWNER) throw invalidField('body', `at most ${MAX_SUBSCRIPTIONS_PER_OWNER} webhooks per key; delete one first.`);
    const now = this.options.clock.now().toISOString();
    const record: WebhookSubscriptionRecord = {
      id: `wh_${timeOrderedId()}`,
      ownerUid: owner,
      url: request.url,
      eventTypes: [...new Set(request.event_types ?? WEBHOOK_EVENT_TYPES)],
      filter: request.filter ?? {},
      thin: request.thin ?? false,
      enabled: request.enabled ?? true,
      disabledReason: null,
      description: request.description ?? null,
      secret: newWebhookSecret(),
      previousSecret: null,
      previousSecretExpiresAt: null,
      declared: false,
      createdAt: now,
      updatedAt: now,
    };
    await this.options.store.createSubscription(record);
    // Enabled from now on, not from the next idle check: runs that change in the meantime are sent at once.
    this.options.wake();
    return toWebhookItem(record, true);
  }

  async list(caller: RunCreatorInfo): Promise<WebhookSubscription[]> {
    return (await this.options.store.listSubscriptions()).filter((s) => this.visible(s, caller)).map((s) => toWebhookItem(s));
  }

  async get(id: string, caller: RunCreatorInfo): Promise<WebhookSubscription> {
    return toWebhookItem(await this.getOrThrow(id, caller));
  }

  /** The fields given replace those stored; enabling clears the reason it was disabled. */
  async update(id: string, body: unknown, caller: RunCreatorInfo): Promise<WebhookSubscription> {
    const parsed = WebhookUpdateRequestSchema.safeParse(body ?? null);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const current = await this.ownedOrThrow(id, caller);
    const change = parsed.data;
    if (change.url !== undefined) await this.checkUrl(change.url);
    const next: WebhookSubscriptionRecord = {
      ...current,
      ...(change.url !== undefined ? { url: change.url } : {}),
      ...(change.event_types !== undefined ? { eventTypes: [...new Set(change.event_types)] } : {}),
      ...(change.filter !== undefined ? { filter: change.filter } : {}),
      ...(change.thin !== undefined ? { thin: change.thin } : {}),
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(change.enabled !== undefined ? { enabled: change.enabled, disabledReason: change.enabled ? null : current.disabledReason } : {}),
      updatedAt: this.options.clock.now().toISOString(),
    };
    if (!(await this.options.store.saveSubscription(next))) throw new NotFoundError(`No webhook with id "${id}".`);
    this.options.wake();
    return toWebhookItem(next);
  }

  async delete(id: string, caller: RunCreatorInfo): Promise<void> {
    await this.ownedOrThrow(id, caller);
    await this.options.store.deleteSubscription(id);
  }

  /** A new secret, shown once; the old one keeps signing beside it for the overlap. */
  async rotateSecret(id: string, body: unknown, caller: RunCreatorInfo): Promise<WebhookSubscription> {
    const parsed = WebhookRotateRequestSchema.safeParse(body ?? {});
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const current = await this.ownedOrThrow(id, caller);
    const now = this.options.clock.now();
    const overlap = parsed.data.overlap_seconds ?? DEFAULT_OVERLAP_SECONDS;
    const next: WebhookSubscriptionRecord = {
      ...current,
      secret: newWebhookSecret(),
      previousSecret: overlap > 0 ? current.secret : null,
      previousSecretExpiresAt: overlap > 0 ? now.getTime() + overlap * 1000 : null,
      updatedAt: now.toISOString(),
    };
    await this.options.store.saveSubscription(next);
    this.options.wake();
    return toWebhookItem(next, true);
  }

  async deliveries(id: string, caller: RunCreatorInfo, limit = 50, before?: number): Promise<WebhookDelivery[]> {
    await this.withDeliveriesOrThrow(id, caller);
    return (await this.options.store.deliveries(id, limit, before)).map(toDeliveryItem);
  }

  /** Sends a delivery again with the same `webhook-id`, whatever became of it. */
  async redeliver(id: string, deliveryId: string, caller: RunCreatorInfo): Promise<WebhookDelivery> {
    await this.withDeliveriesOrThrow(id, caller);
    const delivery = await this.options.store.getDelivery(deliveryId);
    if (!delivery || delivery.subscriptionId !== id) throw new NotFoundError(`No delivery "${deliveryId}" of webhook ${id}.`);
    await this.options.store.redeliver(deliveryId, this.options.clock.now().getTime());
    this.options.wake();
    return toDeliveryItem((await this.options.store.getDelivery(deliveryId))!);
  }

  /** Queues a `webhook.test` event to the subscription (sent while it is enabled). */
  async sendTest(id: string, caller: RunCreatorInfo): Promise<WebhookDelivery> {
    const subscription = await this.withDeliveriesOrThrow(id, caller);
    const now = this.options.clock.now();
    const deliveryId = newMessageId();
    await this.options.store.addDelivery({
      id: deliveryId,
      subscriptionId: subscription.id,
      eventSeq: 0,
      eventType: 'webhook.test',
      orderKey: `test:${deliveryId}`,
      payload: JSON.stringify({ type: 'webhook.test', timestamp: now.toISOString(), data: { webhook_id: subscription.id } }),
      nextAttemptAt: now.getTime(),
      createdAt: now.toISOString(),
    });
    this.options.wake();
    return toDeliveryItem((await this.options.store.getDelivery(deliveryId))!);
  }
}
