import { randomBytes } from 'node:crypto';
import { signWebhook } from '@agent-runs/core/webhooks';
import type { WebhookSubscriptionRecord } from '../store/webhooks/webhook-store.js';

/** A new signing secret as Standard Webhooks writes them: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Why a secret the operator gives is not a Standard Webhooks one (never quoting it), or undefined. */
export function webhookSecretProblem(secret: string): string | undefined {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : undefined;
  const bytes = encoded !== undefined && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) && encoded.length % 4 === 0 ? Buffer.from(encoded, 'base64').length : 0;
  if (bytes >= 24 && bytes <= 64) return undefined;
  return 'the secret is not a Standard Webhooks secret: "whsec_" and the base64 of 24 to 64 random bytes (make one with: echo "whsec_$(openssl rand -base64 32)").';
}

/** The `webhook-signature` header: the current secret's signature, and the previous one's during a rotation's overlap. */
export function signatureHeader(subscription: WebhookSubscriptionRecord, id: string, timestamp: number, body: string, now: number): string {
  const secrets = [subscription.secret];
  if (subscription.previousSecret && (subscription.previousSecretExpiresAt ?? 0) > now) secrets.push(subscription.previousSecret);
  return secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' ');
}
