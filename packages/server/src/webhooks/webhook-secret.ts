import { randomBytes } from 'node:crypto';
import { signWebhook } from '@agent-runs/core/webhooks';
import type { WebhookSubscriptionRecord } from '../store/webhook-store.js';

/** A new signing secret as Standard Webhooks writes them: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The `webhook-signature` header: the current secret's signature, and the previous one's during a rotation's overlap. */
export function signatureHeader(subscription: WebhookSubscriptionRecord, id: string, timestamp: number, body: string, now: number): string {
  const secrets = [subscription.secret];
  if (subscription.previousSecret && (subscription.previousSecretExpiresAt ?? 0) > now) secrets.push(subscription.previousSecret);
  return secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' ');
}
