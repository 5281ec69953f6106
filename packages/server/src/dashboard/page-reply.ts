import { bytes, empty } from '../http/reply.js';
import type { SafeHtml } from './html.js';

/**
 * The dashboard's headers: like the session page's, but its own forms may post to this
 * server (form-action 'self'); scripts, styles and the streams come from this origin only.
 */
export const DASHBOARD_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
} as const;

export function page(body: SafeHtml, status = 200, headers: Record<string, string> = {}) {
  return bytes(body.text, { ...DASHBOARD_HEADERS, ...headers }, status);
}

/** After a form post: back to a page with GET (303), so a reload does not post again. */
export function seeOther(location: string, headers: Record<string, string> = {}) {
  return empty(303, { location, 'cache-control': 'no-store', ...headers });
}
