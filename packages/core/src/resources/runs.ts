import type { z } from 'zod';
import { ListRunsQuerySchema, ListRunsResponseSchema, type ListRunsQuery } from '../contract/list-runs.js';
import { formatIssues } from '../contract/format-issues.js';
import { RunAgentRequestSchema, type RunAgentRequest } from '../contract/run-agent-request.js';
import { RunAgentResponseSchema, type RunAgentResponse } from '../contract/run-agent-response.js';
import { RunItemSchema, type RunItem } from '../contract/run-item.js';
import { APIPromise, type WithResponse } from '../internal/api-promise.js';
import type { HTTPRequest } from '../internal/http-request.js';
import type { RequestOptions } from '../internal/options.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import { waitForRun } from '../wait/wait-for-run.js';
import type { WaitOptions } from '../wait/wait-options.js';
import { PagePromise, RunsPage } from './runs-page.js';
import { z as zod } from 'zod';

type Send = <T>(req: HTTPRequest<T>) => Promise<WithResponse<T>>;

const CancelResponseSchema = zod.string();

export interface CreateAndWaitOptions extends WaitOptions {
  /** Called once the run exists, before waiting: log its id and link here. */
  onCreate?: (created: RunAgentResponse) => void | Promise<void>;
  /** Options for the create request. */
  createOptions?: RequestOptions;
}

function validate<S extends z.ZodType>(schema: S, value: unknown, what: string, root: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RequestValidationError(what, formatIssues(parsed.error, root));
  return parsed.data;
}

function runPath(runId: string): string {
  if (typeof runId !== 'string' || runId.trim() === '') {
    throw new RequestValidationError('run id', ['runId: must be a non-empty string']);
  }
  return `/agent/runs/${encodeURIComponent(runId)}`;
}

/** Rejected APIPromise for validation failures, so every method fails the same way. */
function guard<T>(build: () => Promise<WithResponse<T>>): APIPromise<T> {
  let promise: Promise<WithResponse<T>>;
  try {
    promise = build();
  } catch (error) {
    promise = Promise.reject(error);
  }
  return new APIPromise(promise);
}

/** A run's creation time never changes, so a walk in its order cannot lose or repeat a run. */
export const STABLE_WALK_SORT = 'created_at';

/** `client.runs`: create, fetch, list, cancel and wait for runs. */
export class Runs {
  constructor(private readonly send: Send) {}

  /**
   * Starts a run (`POST /agent/run`). The body is validated first; the request carries an
   * Idempotency-Key that stays the same across retries, so a retry never makes a second run.
   */
  create(body: RunAgentRequest, options: RequestOptions = {}): APIPromise<RunAgentResponse> {
    return guard(() => {
      const valid = validate(RunAgentRequestSchema, body, 'run request', 'body');
      return this.send({
        method: 'POST',
        path: '/agent/run',
        body: valid,
        schema: RunAgentResponseSchema,
        idempotent: true,
        ...options,
      });
    });
  }

  /** One run in full (`GET /agent/runs/{runId}`). */
  get(runId: string, options: RequestOptions = {}): APIPromise<RunItem> {
    return guard(() => this.send({ method: 'GET', path: runPath(runId), schema: RunItemSchema, ...options }));
  }

  /**
   * A page of runs (`GET /agent/runs`). Await it for the first page, or
   * `for await (const run of client.runs.list(query))` for every run across pages, walked
   * by creation time (unless the query names a sort) so that none is missed or repeated.
   */
  list(query: ListRunsQuery = {}, options: RequestOptions = {}): PagePromise {
    const fetchPage = (q: ListRunsQuery): Promise<WithResponse<RunsPage>> =>
      this.send({ method: 'GET', path: '/agent/runs', query: q, schema: ListRunsResponseSchema, ...options }).then(
        ({ data, response }) => ({
          data: new RunsPage(data, (cursor) => fetchPage({ ...q, cursor }).then((r) => r.data)),
          response,
        }),
      );
    const start = (walk: boolean): Promise<WithResponse<RunsPage>> => {
      try {
        const valid = validate(ListRunsQuerySchema, query, 'list query', 'query');
        return fetchPage(walk ? { ...valid, sort_by: valid.sort_by ?? STABLE_WALK_SORT } : valid);
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return new PagePromise(() => start(false), () => start(true));
  }

  /** Cancels a queued or running run; resolves with its id. */
  cancel(runId: string, options: RequestOptions = {}): APIPromise<string> {
    return guard(() =>
      this.send({ method: 'POST', path: `${runPath(runId)}/cancel`, schema: CancelResponseSchema, ...options }),
    );
  }

  /**
   * Polls until the run is terminal (SUCCEEDED, FAILED, ERROR, CANCELLED or BLOCKED) and
   * returns it; throws WaitTimeoutError, carrying the last run seen, when time runs out.
   */
  wait(runId: string, options: WaitOptions = {}): Promise<RunItem> {
    return waitForRun((id, opts) => this.get(id, opts).withResponse(), runId, options);
  }

  /** `create`, then `wait`: resolves with the terminal run. */
  async createAndWait(body: RunAgentRequest, options: CreateAndWaitOptions = {}): Promise<RunItem> {
    const { onCreate, createOptions, ...waitOptions } = options;
    const created = await this.create(body, {
      ...createOptions,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    await onCreate?.(created);
    return this.wait(created.run_id, waitOptions);
  }
}
