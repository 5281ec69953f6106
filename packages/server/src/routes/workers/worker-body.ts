import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { invalidInput } from '../../domain/invalid-request-input.js';
import { ApiProblem } from '../../http/api-problem.js';
import { readRequestBody } from '../../http/read-json-body.js';

/** A report's body at most: the output of a poll interval, and then some. */
export const REPORT_MAX_BYTES = 4 * 1024 * 1024;
/** A finish's body at most: the run's artifacts, in base64 (a third more than their bytes). */
export const FINISH_MAX_BYTES = 64 * 1024 * 1024;
/** A connect's or a poll's body at most. */
export const SMALL_MAX_BYTES = 256 * 1024;

/** A worker's JSON body, at most `limit` bytes, parsed with its protocol schema (a 400 naming the field otherwise). */
export async function readWorkerBody<S extends z.ZodType>(req: IncomingMessage, limit: number, schema: S, what: string): Promise<z.output<S>> {
  const bytes = await readRequestBody(
    req,
    limit,
    (max) => new ApiProblem('invalid_request', `The ${what} body is larger than the limit of ${max} bytes; send it in smaller parts.`, { status: 413, retryable: false }),
  );
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    const message = `The body is not valid JSON: ${(error as Error).message}.`;
    throw new ApiProblem('invalid_request', message, { issues: [{ path: 'body', message }] });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidInput(parsed.error, 'body');
  return parsed.data;
}
