import { APIPromise, type WithResponse } from './api-promise.js';
import { RequestValidationError } from '../errors/request-validation-error.js';

/** Rejected APIPromise for validation failures, so every method fails the same way. */
export function guard<T>(build: () => Promise<WithResponse<T>>): APIPromise<T> {
  let promise: Promise<WithResponse<T>>;
  try {
    promise = build();
  } catch (error) {
    promise = Promise.reject(error);
  }
  return new APIPromise(promise);
}

/** `/agent/runs/{runId}`, refusing an empty id before anything is sent. */
export function runPath(runId: string): string {
  if (typeof runId !== 'string' || runId.trim() === '') {
    throw new RequestValidationError('run id', ['runId: must be a non-empty string']);
  }
  return `/agent/runs/${encodeURIComponent(runId)}`;
}
