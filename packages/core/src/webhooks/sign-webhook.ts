import { createHmac } from 'node:crypto';
import { WebhookVerificationError } from './webhook-verification-error.js';

/** The HMAC key of a `whsec_…` secret: the base64 after the prefix. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('The secret is empty; give the whsec_… secret shown when the webhook was created.');
  return key;
}

/** `v1,<base64>` of the HMAC-SHA256 of `id.timestamp.body`, as Standard Webhooks signs. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
