import type { ServerResponse } from 'node:http';
import type { ApiProblem } from './api-problem.js';

/** `extra`: headers of this answer alone (a quota's RateLimit headers). */
export function sendJson(res: ServerResponse, status: number, value: unknown, extra?: Record<string, string>): void {
  const body = JSON.stringify(value);
  // Raw header pairs: no object of header names to walk per answer.
  const head = [
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(Buffer.byteLength(body)),
    // Answers echo run text: no browser may sniff them into HTML.
    'x-content-type-options',
    'nosniff',
  ];
  // Pushed, not spread from entries: a create under a quota sends two at every answer.
  if (extra) for (const name in extra) head.push(name, extra[name]!);
  res.writeHead(status, head);
  res.end(body);
}

export function sendProblem(res: ServerResponse, problem: ApiProblem, instance: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(problem.body(instance));
  res.writeHead(problem.status, {
    'content-type': 'application/problem+json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    ...problem.headers,
  });
  res.end(body);
}

/**
 * Pages show run text that may be hostile: no script runs, nothing loads from elsewhere,
 * the link's token leaks to no other site and no cache keeps the page.
 */
export const PAGE_HEADERS = {
  // Scripts, styles and the event stream from this server only (the session page's live script is a file of its own).
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html), ...PAGE_HEADERS });
  res.end(html);
}
