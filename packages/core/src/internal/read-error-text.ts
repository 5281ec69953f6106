import type { Dispatcher } from 'undici';
import { attemptDeadlines } from './attempt-deadlines.js';

/** The most of an error answer's body that is read: far more than any Error document needs. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * The start of an error answer's body as text: at most `maxBytes`, of what came within
 * `timeoutMs`; the rest is not read (the connection is closed). However long, or slow, a
 * broken or hostile server makes an error's body, the error costs no more memory or time.
 */
export async function readErrorText(body: Dispatcher.ResponseData['body'], timeoutMs: number, maxBytes = MAX_ERROR_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const deadline = attemptDeadlines.add(timeoutMs, () => body.destroy());
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) break;
    }
  } catch {
    // Cut short (the timer, a reset): what came is the error's text.
  } finally {
    attemptDeadlines.clear(deadline);
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}
