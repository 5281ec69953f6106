import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, errors, type Dispatcher } from 'undici';
import { hostOf, isPrivateAddress, resolveHost, UnsafeWebhookUrlError } from './address-safety.js';

/** What a receiver answered, or why no answer came. */
export interface SendResult {
  status: number | null;
  /** The start of the response body, at most `maxResponseBytes`. */
  body: string | null;
  retryAfter: string | undefined;
  error: string | null;
  /** No answer came within the timeout. */
  timedOut?: true;
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
 * (guardedLookup). undici's client follows no redirect. Its own header and body timers are
 * off: each attempt has one timer of its own, from the start to the end of the answer.
 */
const agentFor = (allowPrivate: boolean) =>
  new Agent({
    connections: CONNECTIONS_PER_RECEIVER,
    keepAliveTimeout: 4000,
    keepAliveMaxTimeout: 4000,
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: { lookup: guardedLookup(allowPrivate) as never },
  });
// Apart by whether private addresses are allowed, so a connection one server opened is never reused by a stricter one.
const AGENTS = { strict: agentFor(false), open: agentFor(true) };

/** A subscription's URL, parsed once: most attempts go to a few receivers. */
const targets = new Map<string, URL | null>();
const MAX_TARGETS = 1000;
function parsedTarget(target: string): URL | null {
  let url = targets.get(target);
  if (url !== undefined) return url;
  try {
    url = new URL(target);
  } catch {
    url = null;
  }
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(target, url);
  return url;
}

const failed = (error: string): SendResult => ({ status: null, body: null, retryAfter: undefined, error });

/** Why an attempt failed: undici wraps some socket errors, and the cause names what went wrong (a refused address among them). */
const failure = (error: Error): string => (error instanceof errors.UndiciError && error.cause instanceof Error ? error.cause : error).message;

/**
 * POSTs one signed webhook: one attempt, no redirect followed (a 3xx is a failure), within
 * `timeoutMs` from its start to the end of the answer, reading at most `maxResponseBytes`
 * (then the connection is closed). undici's dispatch handler, not its request API: no
 * stream, abort signal or promise per attempt beyond this one.
 */
export function sendWebhook(target: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const url = parsedTarget(target);
  if (!url) return Promise.resolve(failed('The URL is not valid.'));
  const host = hostOf(url);
  if (!options.allowPrivate && (url.protocol !== 'https:' || (isIP(host) && isPrivateAddress(host)))) {
    return Promise.resolve(failed(`Refused: ${url.protocol !== 'https:' ? 'not https' : `${host} is a private address`}.`));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.resolve(failed('The URL is not http(s).'));
  return new Promise((resolve) => {
    const max = options.maxResponseBytes;
    const parts: Buffer[] = [];
    let size = 0;
    let status: number | null = null;
    let retryAfter: string | undefined;
    let controller: Dispatcher.DispatchController | undefined;
    let done = false;
    const finish = (result: SendResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const answer = () => ({ status, body: Buffer.concat(parts).toString('utf8'), retryAfter, error: null });
    const timer = setTimeout(() => {
      finish({ ...failed(`No answer within ${options.timeoutMs / 1000} s.`), timedOut: true });
      controller?.abort(new Error('timed out'));
    }, options.timeoutMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        // Timed out while waiting for a connection.
        if (done) c.abort(new Error('timed out'));
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        // An informational answer (1xx) is followed by the real one.
        if (statusCode < 200) return;
        status = statusCode;
        const value = responseHeaders['retry-after'];
        retryAfter = Array.isArray(value) ? value[0] : value;
      },
      onResponseData(c, chunk) {
        if (size < max) parts.push(chunk.subarray(0, max - size));
        size += chunk.length;
        if (size >= max) {
          finish(answer());
          c.abort(new Error('The answer is longer than is read.'));
        }
      },
      onResponseEnd() {
        finish(answer());
      },
      onResponseError(_c, error) {
        finish(failed(failure(error)));
      },
    };
    try {
      AGENTS[options.allowPrivate ? 'open' : 'strict'].dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'agent-runs-webhooks' },
          body,
        },
        handler,
      );
    } catch (error) {
      finish(failed(failure(error as Error)));
    }
  });
}
