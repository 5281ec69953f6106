import { timingSafeEqual } from 'node:crypto';
import { signWebhook } from './sign-webhook.js';
import type { WebhookEvent } from './webhook-contract.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (default 300, as the specification says). */
  toleranceSeconds?: number;
  /** Now, for tests. */
  now?: Date;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const value = bag[name] ?? Object.entries(bag).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks a delivery per Standard Webhooks (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) and answers its event; throws WebhookVerificationError otherwise.
 * `body` is the raw request body, exactly as received.
 */
export function verifyWebhook<T = Record<string, unknown>>(
  body: string | Buffer,
  headers: HeaderBag,
  secret: string,
  options: VerifyWebhookOptions = {},
): WebhookEvent<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
  const seconds = Number(timestamp);
  if (!/^\d{1,12}$/.test(timestamp) || !Number.isSafeInteger(seconds)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds.');
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (seconds < now - tolerance) throw new WebhookVerificationError('The webhook timestamp is too old.');
  if (seconds > now + tolerance) throw new WebhookVerificationError('The webhook timestamp is too new.');
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const expected = Buffer.from(signWebhook(secret, id, seconds, text).slice(3), 'base64');
  const matched = signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matched) throw new WebhookVerificationError('No matching signature found.');
  try {
    return JSON.parse(text) as WebhookEvent<T>;
  } catch {
    throw new WebhookVerificationError('The signed body is not JSON.');
  }
}
