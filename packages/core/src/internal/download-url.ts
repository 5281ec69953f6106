import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { parseErrorBody } from '../contract/error-body.js';
import { makeAPIError } from '../errors/api-error-factory.js';
import { APIConnectionError, APIUserAbortError } from '../errors/connection-errors.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import { DownloadWriteError, isFileSystemError } from '../errors/download-write-error.js';
import type { ResponseHeaders } from '../errors/api-error.js';
import { API_KEY_VARIABLES } from '../connection/env-settings.js';
import { loadUndici } from './load-undici.js';
import { readErrorText } from './read-error-text.js';

/** Largest download kept in memory (a transcript); files go to disk or a stream unbounded by this. */
export const MAX_IN_MEMORY_DOWNLOAD_BYTES = 64 * 1024 * 1024;

export interface DownloadProgress {
  received: number;
  /** From `content-length`, when the server sent one. */
  total?: number | undefined;
}

export interface DownloadTarget {
  /** A file path (written to `<path>.part`, then renamed) or a writable stream (not ended). */
  to: string | NodeJS.WritableStream;
  signal?: AbortSignal | undefined;
  /** Milliseconds without progress (headers, then between chunks) before giving up. Default the client's timeout. */
  timeout?: number | undefined;
  onProgress?: ((progress: DownloadProgress) => void) | undefined;
}

export interface DownloadResult {
  /** Bytes written. */
  bytes: number;
  /** The file written, when `to` was a path. */
  path?: string | undefined;
  contentType?: string | undefined;
}

/** Fetches a signed link (which needs no key, so none is sent: it may be another origin). */
export type DownloadFn = (url: string, target: DownloadTarget) => Promise<DownloadResult>;

function checkUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RequestValidationError('download link', [{ path: 'download_url', message: `"${url.slice(0, 200)}" is not a URL` }]);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new RequestValidationError('download link', [{ path: 'download_url', message: `must be an http(s) URL, not ${parsed.protocol}` }]);
  }
  return parsed;
}

/** Streams the body of `url` into the target, reporting progress; typed errors for 4xx/5xx. */
export async function downloadUrl(dispatcher: Dispatcher, url: string, target: DownloadTarget, defaultTimeout: number): Promise<DownloadResult> {
  checkUrl(url);
  const { request } = await loadUndici();
  const timeout = target.timeout ?? defaultTimeout;
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: 'GET',
      dispatcher,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: target.signal,
    });
  } catch (error) {
    if (target.signal?.aborted) throw new APIUserAbortError(undefined, { cause: error });
    throw new APIConnectionError(`Could not download ${new URL(url).origin}${new URL(url).pathname}: ${(error as Error).message}`, { cause: error });
  }
  const headers = response.headers as ResponseHeaders;
  if (response.statusCode >= 400) {
    const text = await readErrorText(response.body, timeout);
    const body = parseErrorBody(text);
    // The signature is a secret of sorts: the error names the path only.
    const shown = `${new URL(url).origin}${new URL(url).pathname}`;
    throw makeAPIError({ status: response.statusCode, body, rawText: body ? undefined : text, headers, request: { method: 'GET', url: shown }, apiKeyVariables: API_KEY_VARIABLES });
  }
  const lengthHeader = Number(headers['content-length']);
  const total = Number.isFinite(lengthHeader) && lengthHeader >= 0 ? lengthHeader : undefined;
  const contentType = typeof headers['content-type'] === 'string' && headers['content-type'] !== '' ? headers['content-type'] : undefined;
  let received = 0;
  const counted = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      received += chunk.length;
      target.onProgress?.({ received, total });
      yield chunk;
    }
  };
  const options = target.signal ? { signal: target.signal } : {};
  try {
    if (typeof target.to === 'string') {
      const partial = `${target.to}.part`;
      try {
        // `{ to: 'out/report.txt' }` makes `out/`, as `mkdir -p` would.
        await mkdir(dirname(target.to), { recursive: true });
        await pipeline(response.body, counted, createWriteStream(partial), options);
        await rename(partial, target.to);
      } catch (error) {
        // A failed clean-up must not hide why the download failed.
        await rm(partial, { force: true }).catch(() => {});
        throw error;
      }
      return { bytes: received, path: target.to, contentType };
    }
    await pipeline(response.body, counted, target.to as NodeJS.WritableStream, { ...options, end: false });
    return { bytes: received, contentType };
  } catch (error) {
    if (target.signal?.aborted) throw new APIUserAbortError(undefined, { cause: error });
    if (error instanceof RequestValidationError) throw error;
    if (typeof target.to === 'string' && isFileSystemError(error)) throw new DownloadWriteError(target.to, error);
    throw new APIConnectionError(`The download from ${new URL(url).origin} broke off after ${received} bytes: ${(error as Error).message}`, { cause: error });
  }
}

/** Collects a download in memory, up to `maxBytes`. */
export async function downloadText(download: DownloadFn, url: string, signal?: AbortSignal, maxBytes = MAX_IN_MEMORY_DOWNLOAD_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new Error(`it is larger than ${maxBytes} bytes; download it to a file instead`));
        return;
      }
      chunks.push(chunk);
      callback();
    },
  });
  await download(url, { to: sink, signal });
  return Buffer.concat(chunks).toString('utf8');
}
