import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
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
 * Connections kept open between attempts to the same receiver (a burst of events costs no
 * handshake each), at most 32 to one receiver, all of them kept when idle (fewer would close
 * and reopen connections all through a burst); an idle one is closed after a few seconds,
 * before most servers drop it. Each new connection resolves and checks its address again (guardedLookup).
 */
const PER_RECEIVER = 32;
const KEEP_ALIVE = { keepAlive: true, maxSockets: PER_RECEIVER, maxFreeSockets: PER_RECEIVER, timeout: 4000, scheduling: 'lifo' as const };
// Apart by whether private addresses are allowed, so a connection one server opened is never reused by a stricter one.
const AGENTS = {
  strict: { http: new HttpAgent(KEEP_ALIVE), https: new HttpsAgent(KEEP_ALIVE) },
  open: { http: new HttpAgent(KEEP_ALIVE), https: new HttpsAgent(KEEP_ALIVE) },
};

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

/** Reads at most `max` bytes of the body, then lets the rest go. */
function readBounded(response: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(parts).toString('utf8'));
    response.on('data', (chunk: Buffer) => {
      if (size < max) parts.push(chunk.subarray(0, max - size));
      size += chunk.length;
      if (size >= max) {
        response.destroy();
        done();
      }
    });
    response.on('end', done);
    response.on('error', done);
    response.on('close', done);
  });
}

/**
 * POSTs one signed webhook: one attempt, no redirect followed (a 3xx is a failure), within
 * `timeoutMs` from connecting to the end of the answer, reading at most `maxResponseBytes`.
 */
export function sendWebhook(target: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      resolve({ status: null, body: null, retryAfter: undefined, error: 'The URL is not valid.' });
      return;
    }
    const host = hostOf(url);
    if (!options.allowPrivate && (url.protocol !== 'https:' || (isIP(host) && isPrivateAddress(host)))) {
      resolve({ status: null, body: null, retryAfter: undefined, error: `Refused: ${url.protocol !== 'https:' ? 'not https' : `${host} is a private address`}.` });
      return;
    }
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'agent-runs-webhooks' },
      lookup: guardedLookup(options.allowPrivate) as never,
      agent: AGENTS[options.allowPrivate ? 'open' : 'strict'][secure ? 'https' : 'http'],
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`No answer within ${options.timeoutMs / 1000} s.`));
    }, options.timeoutMs);
    req.on('response', (response) => {
      void readBounded(response, options.maxResponseBytes).then((text) => {
        const retryAfter = response.headers['retry-after'];
        finish({ status: response.statusCode ?? null, body: text, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, error: null });
      });
    });
    req.on('error', (error) => finish({ status: null, body: null, retryAfter: undefined, error: error.message }));
    req.end(body);
  });
}
