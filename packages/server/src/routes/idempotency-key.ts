import { invalidField } from '../domain/invalid-request-input.js';
import type { IncomingMessage } from 'node:http';

const MAX_IDEMPOTENCY_KEY = 255;

/** The request's `Idempotency-Key`, if it sent one; 1 to 255 characters. */
export function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  const raw = req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key !== undefined && (key.trim() === '' || key.length > MAX_IDEMPOTENCY_KEY)) {
    throw invalidField('Idempotency-Key', `must be 1 to ${MAX_IDEMPOTENCY_KEY} characters.`);
  }
  return key;
}
