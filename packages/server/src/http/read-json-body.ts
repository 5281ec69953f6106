import type { IncomingMessage } from 'node:http';
import { PROMPT_MAX_CHARS } from '@agent-runs/core/contract';
import { ApiProblem } from './api-problem.js';

/**
 * Reads a request body of at most `limit` bytes: the one bounded body reader of the server
 * (JSON bodies, the dashboard's forms). Past the limit it drains the rest and throws `tooLarge`.
 */
export async function readRequestBody(req: IncomingMessage, limit: number, tooLarge: (limit: number) => ApiProblem = tooLargeBody): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    // The caller went away mid-body: the answer reaches no one, but is not an internal error.
    req.once('aborted', () => reject(new ApiProblem('invalid_request', 'The request body ended before its end.')));
  });
}

/** Reads and parses a JSON body of at most `limit` bytes; an empty body reads as undefined. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const text = (await readRequestBody(req, limit, tooLarge)).toString('utf8');
  if (text.trim() === '') return undefined;
  // The Content-Type was checked before the body was read (json-content-type.ts).
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = `The body is not valid JSON: ${(error as Error).message}.`;
    throw new ApiProblem('invalid_request', message, { issues: [{ path: 'body', message }] });
  }
}

function tooLargeBody(limit: number): ApiProblem {
  return new ApiProblem('invalid_request', `The body is larger than the limit of ${limit} bytes.`, { status: 413, retryable: false });
}

function tooLarge(limit: number): ApiProblem {
  return new ApiProblem('invalid_request', `The body is larger than the limit of ${limit} bytes (a prompt may have up to ${PROMPT_MAX_CHARS} characters).`, {
    status: 413,
    retryable: false,
  });
}
