import type { z } from 'zod';
import { validationIssues } from '../contract/format-issues.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { HTTPRequest } from './http-request.js';

/** How a resource sends a request: the client's transport, retries and errors included. */
export type Send = <T>(req: HTTPRequest<T>) => Promise<WithResponse<T>>;

/** Parses a request part before sending; a RequestValidationError names every problem. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RequestValidationError(what, validationIssues(parsed.error));
  return parsed.data;
}

/** One path segment from a caller's id, encoded; an empty id is named before sending. */
export function pathSegment(name: string, value: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RequestValidationError(name, [{ path: name, message: 'must be a non-empty string' }]);
  }
  return encodeURIComponent(value);
}

/** `/agent/runs/{runId}`, refusing an empty id before anything is sent. */
export function runPath(runId: string): string {
  return `/agent/runs/${pathSegment('runId', runId)}`;
}

/** Runs `build` and turns a synchronous throw (a validation failure) into a rejected APIPromise. */
export function guard<T>(build: () => Promise<WithResponse<T>>): APIPromise<T> {
  let promise: Promise<WithResponse<T>>;
  try {
    promise = build();
  } catch (error) {
    promise = Promise.reject(error);
  }
  return new APIPromise(promise);
}
