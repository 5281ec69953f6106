import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { ApiProblem } from '../http/api-problem.js';
import { bytes } from '../http/reply.js';
import type { AppRoute } from './app-context.js';

/** Whether the request came from this machine. */
function fromLoopback(req: IncomingMessage): boolean {
  const address = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  return address === '::1' || (isIP(address) === 4 && address.startsWith('127.'));
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The metrics token was sent (compared by digest, in constant time). */
function hasToken(req: IncomingMessage, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(String(req.headers.authorization ?? ''));
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/**
 * `GET /metrics`: Prometheus metrics (queued runs and runs in flight per worker id, workers
 * connected and their free slots, worker leases lost). With `metrics_token` in the
 * configuration file it takes that token as Bearer, from anywhere; without, it answers
 * requests from this machine only. Never an API key: a scraper is not a principal.
 */
export const metricsRoute: AppRoute = {
  method: 'GET',
  path: '/metrics',
  auth: false,
  async handle({ req, app }) {
    const { token } = app.metrics;
    if (token ? !hasToken(req, token) : !fromLoopback(req)) {
      throw new ApiProblem(
        token ? 'authentication_required' : 'not_authorized',
        token
          ? 'Send Authorization: Bearer <the metrics token> (metrics_token in the configuration file).'
          : 'Metrics are served to this machine only; set metrics_token in the configuration file to scrape them from elsewhere.',
        { retryable: false, ...(token ? { headers: { 'www-authenticate': 'Bearer' } } : {}) },
      );
    }
    return bytes(await app.metrics.render(), { 'content-type': app.metrics.contentType, 'cache-control': 'no-store' });
  },
};
