import { WEBHOOK_EVENT_TYPES } from '@agent-runs/core/webhooks';
import type { ServerClock } from '../domain/server-clock.js';
import type { DeclaredWebhook } from '../domain/server-config.js';
import { ServerConfigError } from '../domain/server-config-error.js';
import type { WebhookStore, WebhookSubscriptionRecord } from '../store/webhooks/webhook-store.js';
import { checkWebhookUrl, UnresolvedHostError, UnsafeWebhookUrlError } from './address-safety.js';

/** How long a declared webhook's old secret keeps signing after the file gives it a new one. */
export const DECLARED_SECRET_OVERLAP_MS = 24 * 3600 * 1000;

const PREFIX = 'wh_config_';

/** The id of the subscription a `webhooks:` entry keeps: its name, so every start finds the same one. */
export const declaredWebhookId = (name: string) => `${PREFIX}${name}`;

/** The `webhooks:` key of a declared subscription's id. */
export const declaredWebhookName = (id: string) => (id.startsWith(PREFIX) ? id.slice(PREFIX.length) : id);

export interface DeclaredWebhookSync {
  store: WebhookStore;
  clock: ServerClock;
  allowPrivate: boolean;
  /** The principals of the server's API keys, which a webhook's `owner` must name. */
  principals: readonly string[];
  log: (line: string) => void;
}

/** The fields the file decides, compared to tell whether a start changes anything. */
const definitionOf = (s: WebhookSubscriptionRecord) =>
  JSON.stringify([s.url, s.eventTypes, s.filter, s.thin, s.enabled, s.description, s.ownerUid, s.secret]);

/** Refuses a declaration the server cannot keep; a host that does not resolve yet is only said, and checked again at each delivery. */
async function checkDeclared(hook: DeclaredWebhook, options: DeclaredWebhookSync): Promise<void> {
  if (hook.owner !== undefined && !options.principals.includes(hook.owner)) {
    throw new ServerConfigError(
      `Configuration file: webhooks.${hook.name}.owner: "${hook.owner}" is not a principal of this server's API keys (principals: ${options.principals.join(', ') || 'none'}), nor "all".`,
    );
  }
  try {
    await checkWebhookUrl(hook.url, options.allowPrivate);
  } catch (error) {
    if (error instanceof UnresolvedHostError) options.log(`Webhook webhooks.${hook.name}: its url ${error.message} It is kept; each delivery resolves it again.`);
    else if (error instanceof UnsafeWebhookUrlError) throw new ServerConfigError(`Configuration file: webhooks.${hook.name}.url: ${error.message}`);
    else throw error;
  }
}

/**
 * Makes the store's operator-managed subscriptions those the configuration file declares,
 * at start-up: each entry is created once under an id made from its name, updated when the
 * file changed it (a new secret keeps the old one signing for a day), and one no longer
 * in the file is removed. A start with an unchanged file writes nothing.
 */
export async function syncDeclaredWebhooks(declared: readonly DeclaredWebhook[], options: DeclaredWebhookSync): Promise<void> {
  for (const hook of declared) await checkDeclared(hook, options);
  const { store } = options;
  const now = options.clock.now();
  const wanted = new Set(declared.map((hook) => declaredWebhookId(hook.name)));
  for (const hook of declared) {
    const id = declaredWebhookId(hook.name);
    const current = await store.getSubscription(id);
    const next: WebhookSubscriptionRecord = {
      id,
      // A key's principal is its runs' creator uid.
      ownerUid: hook.owner ?? null,
      url: hook.url,
      eventTypes: [...new Set(hook.eventTypes ?? WEBHOOK_EVENT_TYPES)],
      filter: hook.filter,
      thin: hook.thin,
      // The file wins at each start: one the server disabled (a 410) is enabled again unless the file says otherwise.
      enabled: hook.enabled,
      disabledReason: null,
      description: hook.description ?? null,
      secret: hook.secret,
      previousSecret: current?.previousSecret ?? null,
      previousSecretExpiresAt: current?.previousSecretExpiresAt ?? null,
      declared: true,
      createdAt: current?.createdAt ?? now.toISOString(),
      updatedAt: current?.updatedAt ?? now.toISOString(),
    };
    if (!current) {
      try {
        await store.createSubscription(next);
        continue;
      } catch (error) {
        // Another server of the same database made it first: this one's file is applied over it.
        if (!(await store.getSubscription(id))) throw error;
      }
    } else if (current.declared && definitionOf(current) === definitionOf(next)) {
      continue;
    }
    if (current && current.secret !== hook.secret) {
      next.previousSecret = current.secret;
      next.previousSecretExpiresAt = now.getTime() + DECLARED_SECRET_OVERLAP_MS;
    }
    next.updatedAt = now.toISOString();
    await store.saveSubscription(next);
  }
  for (const subscription of await store.listSubscriptions()) {
    if (!subscription.declared || wanted.has(subscription.id)) continue;
    await store.deleteSubscription(subscription.id);
    options.log(`Webhook ${subscription.id} removed: it is no longer declared in the configuration file.`);
  }
}
