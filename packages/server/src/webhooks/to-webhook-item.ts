import type { WebhookDelivery, WebhookSubscription } from '@agent-runs/core/webhooks';
import type { WebhookDeliveryRecord, WebhookSubscriptionRecord } from '../store/webhooks/webhook-store.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The address a key is shown. One the operator declares for every run is every key's to
 * see, but its path, query and credentials (where a receiver's token often is) are the
 * operator's: its origin alone is shown.
 */
function shownUrl(s: WebhookSubscriptionRecord): string {
  if (!(s.declared && s.ownerUid === null)) return s.url;
  try {
    return new URL(s.url).origin;
  } catch {
    return '';
  }
}

/** A subscription as the API shows it; its secret only when just made or rotated. */
export function toWebhookItem(s: WebhookSubscriptionRecord, showSecret = false): WebhookSubscription {
  return {
    id: s.id,
    url: shownUrl(s),
    event_types: s.eventTypes,
    filter: s.filter,
    enabled: s.enabled,
    thin: s.thin,
    description: s.description,
    disabled_reason: s.disabledReason,
    owner: s.ownerUid,
    // Declared in the configuration file: read-only through the API.
    operator_managed: s.declared,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    ...(showSecret ? { secret: s.secret } : {}),
    previous_secret_expires_at: s.previousSecret ? iso(s.previousSecretExpiresAt) : null,
  };
}

export function toDeliveryItem(d: WebhookDeliveryRecord): WebhookDelivery {
  let payload: unknown;
  try {
    payload = JSON.parse(d.payload);
  } catch {
    payload = undefined;
  }
  return {
    id: d.id,
    webhook_id: d.subscriptionId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    created_at: d.createdAt,
    last_attempt_at: d.lastAttemptAt,
    last_response_status: d.lastStatus,
    last_response_body: d.lastResponse,
    last_error: d.lastError,
    next_attempt_at: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    payload,
  };
}
