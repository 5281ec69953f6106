import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, errors } from 'undici';
import { hostOf, isPrivateAddress, resolveHost, UnsafeWebhookUrlError } from './address-safety.js';

/** What a receiver answered, or why no answer came. */
export interface SendResult {
  status: number | null;
  /** The start of the response body, at most `maxResponseBytes`. */
  body: string | null;
  retryAfter: string | undefined;
  error: string | null;
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
}

/**
 * Connections to one receiver at most, kept open between attempts; also how many attempts
 * are in flight at once, so an attempt that holds a slot never queues for a connection
 * (with half as many, a burst's median delivery waited three times as long).
 */
export const CONNECTIONS_PER_RECEIVER = 64;

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Resolves the host for the connection itself and refuses private addresses there, so a
 * name that resolved to a public address at creation cannot be rebound to a private one.
 */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    resolveHost(hostname).then(
      (addresses) => {
        const usable = allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
        if (usable.length === 0) {
          const error: NodeJS.ErrnoException = new UnsafeWebhookUrlError(`${hostname} resolves to a private address (${addresses[0]?.address ?? 'none'}); refused.`);
          error.code = 'EWEBHOOKPRIVATE';
          callback(error, '');
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/**
 * Connections kept open between attempts to the same receiver (a burst of events costs no
 * handshake each), at most CONNECTIONS_PER_RECEIVER to one; an idle one is closed after a few seconds,
 * before most servers drop it. Each new connection resolves and checks its address again
 * (guardedLookup). undici's client: less work per request than node:http's, and it follows no redirect.
 */
const agentFor = (allowPrivate: boolean) =>
  new Agent({
    connections: CONNECTIONS_PER_RECEIVER,
    keepAliveTimeout: 4000,
    keepAliveMaxTimeout: 4000,
    connect: { lookup: guardedLookup(allowPrivate) as never },
  });
// Apart by whether private addresses are allowed, so a connection one server opened is never reused by a stricter one.
const AGENTS = { strict: agentFor(false), open: agentFor(true) };

/** Reads at most `max` bytes of the body, then lets the rest go (closing the connection). */
async function readBounded(body: AsyncIterable<Buffer> & { destroy(): unknown }, max: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < max) parts.push(chunk.subarray(0, max - size));
    size += chunk.length;
    if (size >= max) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(parts).toString('utf8');
}

/**
 * POSTs one signed webhook: one attempt, no redirect followed (a 3xx is a failure), within
 * `timeoutMs` from connecting to the end of the answer, reading at most `maxResponseBytes`.
 */
export async function sendWebhook(target: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { status: null, body: null, retryAfter: undefined, error: 'The URL is not valid.' };
  }
  const host = hostOf(url);
  if (!options.allowPrivate && (url.protocol !== 'https:' || (isIP(host) && isPrivateAddress(host)))) {
    return { status: null, body: null, retryAfter: undefined, error: `Refused: ${url.protocol !== 'https:' ? 'not https' : `${host} is a private address`}.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { status: null, body: null, retryAfter: undefined, error: 'The URL is not http(s).' };
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
  try {
    const response = await AGENTS[options.allowPrivate ? 'open' : 'strict'].request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'agent-runs-webhooks' },
      body,
      signal: timeout.signal,
    });
    const text = await readBounded(response.body, options.maxResponseBytes);
    const retryAfter = response.headers['retry-after'];
    return { status: response.statusCode, body: text, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, error: null };
  } catch (error) {
    if (timeout.signal.aborted) return { status: null, body: null, retryAfter: undefined, error: `No answer within ${options.timeoutMs / 1000} s.` };
    // undici wraps some socket errors; the cause names what went wrong (a refused address among them).
    const cause = error instanceof errors.UndiciError && error.cause instanceof Error ? error.cause : error;
    return { status: null, body: null, retryAfter: undefined, error: (cause as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
