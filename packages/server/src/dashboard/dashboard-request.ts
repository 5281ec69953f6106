import type { IncomingMessage } from 'node:http';
import type { RunCreatorInfo } from '@agent-runs/core/contract';
import { RUN_REQUEST_LIMITS } from '@agent-runs/core/contract';
import { ApiProblem } from '../http/api-problem.js';
import { readRequestBody } from '../http/read-json-body.js';
import { creatorFor } from '../http/api-key-auth.js';
import { csrfMatches, type DashboardSession } from './dashboard-sessions.js';
import { attachmentLimits } from './form-attachments.js';
import { boundaryOf, MultipartError, parseMultipart, type PostedFile } from './multipart-form.js';

export const COOKIE = 'agent_runs_session';
/** A form never needs more: prompts are the largest field. */
export const MAX_FORM_BYTES = 512 * 1024;

export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Whether the browser reached us over https (directly, or through a proxy that says so). */
export function isHttps(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true || req.headers['x-forwarded-proto'] === 'https';
}

/** This server as the browser reached it: what a page's commands to paste name. */
export const baseUrlOf = (req: IncomingMessage) => `${isHttps(req) ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;

export function sessionCookie(req: IncomingMessage, value: string, maxAgeSeconds: number): string {
  return `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${isHttps(req) ? '; Secure' : ''}`;
}

/** Who a signed-in browser is, as services name a caller. */
export function callerOf(session: DashboardSession): RunCreatorInfo {
  return creatorFor(session.principal);
}

/** A posted form: its text fields, and the files of a form that takes them. */
export interface PostedForm {
  fields: URLSearchParams;
  files: PostedFile[];
}

/** A form with files: the API's attachments at their largest, the text fields, and the parts' framing. */
export const MAX_UPLOAD_FORM_BYTES = RUN_REQUEST_LIMITS.attachmentsTotalBytes + MAX_FORM_BYTES + 64 * 1024;
const MAX_FORM_PARTS = 64;

const refused = (status: number, detail: string) => new ApiProblem('invalid_request', detail, { status, retryable: false });

/**
 * Reads a form post through the server's one bounded body reader: urlencoded (at most
 * MAX_FORM_BYTES), or, where `withFiles`, multipart with files (at most MAX_UPLOAD_FORM_BYTES).
 */
export async function readForm(req: IncomingMessage, withFiles = false): Promise<PostedForm> {
  const contentType = req.headers['content-type'] ?? '';
  const media = contentType.split(';')[0]!.trim().toLowerCase();
  if (media === 'application/x-www-form-urlencoded') {
    const body = await readRequestBody(req, MAX_FORM_BYTES, (limit) => refused(413, `The form is larger than ${limit} bytes.`));
    return { fields: new URLSearchParams(body.toString('utf8')), files: [] };
  }
  if (withFiles && media === 'multipart/form-data') {
    const boundary = boundaryOf(contentType);
    if (!boundary) {
      req.resume();
      throw refused(400, 'Content-Type: multipart/form-data without a valid boundary parameter.');
    }
    const body = await readRequestBody(req, MAX_UPLOAD_FORM_BYTES, () => refused(413, attachmentsTooLarge()));
    try {
      return parseMultipart(body, boundary, { maxParts: MAX_FORM_PARTS, maxFieldBytes: MAX_FORM_BYTES });
    } catch (error) {
      if (!(error instanceof MultipartError)) throw error;
      throw refused(400, error.field ? `${error.field}: ${error.message}` : `The form: ${error.message}`);
    }
  }
  req.resume();
  const expected = withFiles ? 'application/x-www-form-urlencoded or multipart/form-data' : 'application/x-www-form-urlencoded';
  throw refused(415, `Content-Type: a dashboard form is sent as ${expected}.`);
}

const attachmentsTooLarge = () => `attachments: the files are too large to send; attach ${attachmentLimits()}.`;

/** A state-changing post must come from a page of this server: its Origin names this host (browsers send it on every form post). */
export function checkOrigin(req: IncomingMessage): void {
  const origin = req.headers.origin;
  let originHost: string | undefined;
  try {
    originHost = origin ? new URL(origin).host.toLowerCase() : undefined;
  } catch {
    originHost = undefined;
  }
  if (!originHost || originHost !== req.headers.host?.toLowerCase()) {
    req.resume();
    throw new ApiProblem('not_authorized', `Origin "${origin ?? ''}": a dashboard form is accepted only from this server's own pages.`, { status: 403, retryable: false });
  }
}

/** A signed-in form carries the session's CSRF token. */
export function checkCsrf(form: URLSearchParams, session: DashboardSession | undefined): void {
  if (session && !csrfMatches(session, form.get('csrf') ?? undefined)) {
    throw new ApiProblem('not_authorized', 'csrf: the form\'s token is missing or stale; reload the page and send it again.', { status: 403, retryable: false });
  }
}
