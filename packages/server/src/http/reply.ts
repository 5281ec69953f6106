import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What a route returns when the answer is not a JSON body with 200: a route returns plain
 * values for that, and one of these otherwise. `sendResult` (send-result.ts) writes both.
 */
export type Reply =
  | { readonly reply: 'json'; readonly status: number; readonly value: unknown; readonly headers?: Record<string, string> | undefined }
  | { readonly reply: 'empty'; readonly status: number; readonly headers: Record<string, string | number> }
  | { readonly reply: 'html'; readonly status: number; readonly html: string }
  | { readonly reply: 'bytes'; readonly status: number; readonly body: string | Buffer; readonly headers: Record<string, string> }
  | { readonly reply: 'download'; readonly body: Buffer; readonly contentType: string; readonly filename: string }
  | { readonly reply: 'file-download'; readonly open: () => OpenedFile | undefined; readonly contentType: string; readonly filename: string }
  | { readonly reply: 'stream'; readonly open: (req: IncomingMessage, res: ServerResponse) => void };

/** A file opened for reading: its descriptor, which the sender closes, and its size. */
export interface OpenedFile {
  fd: number;
  size: number;
}

const REPLIES = new WeakSet<object>();

function make<R extends Reply>(reply: R): R {
  REPLIES.add(reply);
  return reply;
}

/** Whether a route's result is a Reply (made here) rather than a JSON value to send as is. */
export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && REPLIES.has(value);
}

/** A JSON body with another status than 200 (a 201 for a create). */
export const json = (value: unknown, status: number, headers?: Record<string, string>) => make({ reply: 'json', status, value, headers });
/** No body: a 204, or a redirect with its `location`. */
export const empty = (status: number, headers: Record<string, string | number> = {}) => make({ reply: 'empty', status, headers });
/** A page, sent with the page headers (no script from elsewhere, no cache). */
export const html = (page: string, status = 200) => make({ reply: 'html', status, html: page });
/** Bytes of a fixed content type (a script, say) with the headers given. */
export const bytes = (body: string | Buffer, headers: Record<string, string>, status = 200) => make({ reply: 'bytes', status, body, headers });
/** Bytes an agent made, sent as a download that is never rendered. */
export const download = (body: Buffer, contentType: string, filename: string) => make({ reply: 'download', body, contentType, filename });
/**
 * A file on disk, streamed as a download: `open` opens it when the answer is sent (the route
 * decides how: an agent's file is opened without following a link), undefined when it is no
 * longer a regular file.
 */
export const fileDownload = (open: () => OpenedFile | undefined, contentType: string, filename: string) =>
  make({ reply: 'file-download', open, contentType, filename });
/** An answer that takes over the response (an event stream). */
export const stream = (open: (req: IncomingMessage, res: ServerResponse) => void) => make({ reply: 'stream', open });
