/**
 * The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers, structured-field form):
 * the policy (`"creates";q=60;w=60`) and what is left of it now (`"creates";r=0;t=12`).
 * The quota's name is a token of ours, never caller input, so it needs no escaping.
 */
export function rateLimitHeaders(quota: string, limit: number, windowSeconds: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'ratelimit-policy': `"${quota}";q=${limit};w=${windowSeconds}`,
    ratelimit: `"${quota}";r=${Math.max(0, remaining)};t=${Math.max(0, Math.ceil(resetSeconds))}`,
  };
}
