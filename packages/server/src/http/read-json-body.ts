import type { IncomingMessage } from 'node:http';
import { ApiProblem } from './api-problem.js';

/** Reads and parses a JSON body of at most `limit` bytes; an empty body reads as undefined. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  const type = String(req.headers['content-type'] ?? 'application/json').toLowerCase();
  if (!type.includes('json')) {
    throw new ApiProblem('invalid_request', `Content-Type must be application/json, got "${type}".`, { status: 415 });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiProblem('invalid_request', `The body is not valid JSON: ${(error as Error).message}.`);
  }
}

function tooLarge(limit: number): ApiProblem {
  return new ApiProblem('invalid_request', `The body is larger than the limit of ${limit} bytes.`, {
    status: 413,
    retryable: false,
  });
}
