import type { Dispatcher } from 'undici';
import type { ResponseHeaders } from '../errors/api-error.js';
import { attemptDeadlines } from './attempt-deadlines.js';
import { MAX_ERROR_BODY_BYTES } from './read-error-text.js';

export interface BufferedResponse {
  status: number;
  headers: ResponseHeaders;
  text: string;
}

export interface BufferedRequest {
  origin: string;
  /** Path and query, e.g. `/api/v1/agent/runs?limit=5`. */
  path: string;
  method: string;
  headers: Record<string, string>;
  /** `null` when there is none (undici's own word for no body). */
  body: string | null;
}

/** Why a request was aborted: our timer or the caller's signal. */
export class AbortReason extends Error {
  constructor(readonly kind: 'timeout' | 'user') {
    super(kind === 'timeout' ? 'timed out' : 'aborted');
  }
}

/** A successful answer's body was longer than the client reads (`maxResponseSize`). */
export class ResponseTooLarge extends Error {
  constructor(
    readonly status: number,
    readonly limit: number,
  ) {
    super(`the body is longer than ${limit} bytes`);
  }
}

/**
 * One request through undici's dispatch API, the whole body collected as text. Unlike
 * `undici.request` it needs no AbortSignal (the handler's controller aborts) and no body
 * stream, which keeps a small JSON call within a few per cent of the bare socket work.
 * A body is read up to `maxBytes` (past it the request fails with ResponseTooLarge); an error
 * answer's (4xx, 5xx), whatever `maxBytes`, up to MAX_ERROR_BODY_BYTES, which is kept and the
 * rest left unread.
 */
export function dispatchBuffered(
  dispatcher: Dispatcher,
  req: BufferedRequest,
  timeout: number,
  signal: AbortSignal | undefined,
  maxBytes: number,
): Promise<BufferedResponse> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let aborted: AbortReason | ResponseTooLarge | undefined;
    let settled = false;
    let status = 0;
    let headers: ResponseHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;

    const succeed = (text: string) => {
      if (settled) return;
      settled = true;
      done();
      resolve({ status, headers, text });
    };
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      done();
      reject(error);
    };
    const abort = (reason: AbortReason | ResponseTooLarge) => {
      if (aborted || settled) return;
      aborted = reason;
      // Not started yet (waiting for a connection): onRequestStart aborts it then.
      controller?.abort(reason);
      fail(reason);
    };
    const deadline = attemptDeadlines.add(timeout, () => abort(new AbortReason('timeout')));
    const onUserAbort = () => abort(new AbortReason('user'));
    signal?.addEventListener('abort', onUserAbort, { once: true });
    const done = () => {
      attemptDeadlines.clear(deadline);
      signal?.removeEventListener('abort', onUserAbort);
    };

    dispatcher.dispatch(req, {
      onRequestStart(c) {
        controller = c;
        if (aborted) c.abort(aborted);
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        status = statusCode;
        headers = responseHeaders as ResponseHeaders;
      },
      onResponseData(c, chunk) {
        if (settled) return;
        size += chunk.length;
        chunks.push(chunk);
        if (status >= 400) {
          if (size < MAX_ERROR_BODY_BYTES) return;
          // Enough of an error to report it: the rest is not read.
          succeed(Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY_BYTES).toString('utf8'));
          c.abort(new Error('The rest of the error body is not read.'));
        } else if (size > maxBytes) {
          abort(new ResponseTooLarge(status, maxBytes));
        }
      },
      onResponseEnd() {
        succeed(Buffer.concat(chunks).toString('utf8'));
      },
      onResponseError(_c, error) {
        fail(aborted ?? error);
      },
    });
  });
}
