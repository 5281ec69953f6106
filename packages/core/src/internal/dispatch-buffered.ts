import type { Dispatcher } from 'undici';
import type { ResponseHeaders } from '../errors/api-error.js';
import { attemptDeadlines } from './attempt-deadlines.js';

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

/**
 * One request through undici's dispatch API, the whole body collected as text. Unlike
 * `undici.request` it needs no AbortSignal (the handler's controller aborts) and no body
 * stream, which keeps a small JSON call within a few per cent of the bare socket work.
 */
export function dispatchBuffered(
  dispatcher: Dispatcher,
  req: BufferedRequest,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<BufferedResponse> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let aborted: AbortReason | undefined;
    let status = 0;
    let headers: ResponseHeaders = {};
    const chunks: Buffer[] = [];

    const abort = (reason: AbortReason) => {
      if (aborted) return;
      aborted = reason;
      done();
      // Not started yet (waiting for a connection): onRequestStart aborts it then.
      controller?.abort(reason);
      reject(reason);
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
      onResponseData(_c, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        done();
        resolve({ status, headers, text: Buffer.concat(chunks).toString('utf8') });
      },
      onResponseError(_c, error) {
        done();
        reject(aborted ?? error);
      },
    });
  });
}
