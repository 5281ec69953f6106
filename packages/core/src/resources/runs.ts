import { ListRunsQuerySchema, ListRunsResponseSchema, type ListRunsQuery } from '../contract/list-runs.js';
import { RunAgentRequestSchema, type RunAgentRequest } from '../contract/run-agent-request.js';
import { RunAgentResponseSchema, type RunAgentResponse } from '../contract/run-agent-response.js';
import { RunItemSchema, type RunItem } from '../contract/run-item.js';
import { APIPromise, type WithResponse } from '../internal/api-promise.js';
import { guard, runPath, validate, type Send } from '../internal/resource-helpers.js';
import type { RequestOptions } from '../internal/options.js';
import { waitForRun } from '../wait/wait-for-run.js';
import type { WaitOptions } from '../wait/wait-options.js';
import { PagePromise, RunsPage } from './runs-page.js';
import { RunFollowups } from './runs-followups.js';
import type { DownloadFn } from '../internal/download-url.js';
import { z as zod } from 'zod';

const CancelResponseSchema = zod.string();

export interface CreateAndWaitOptions extends WaitOptions {
  /** Called once the run exists, before waiting: log its id and link here. */
  onCreate?: (created: RunAgentResponse) => void | Promise<void>;
  /** Options for the create request. */
  createOptions?: RequestOptions;
}

/** A run's creation time never changes, so a walk in its order cannot lose or repeat a run. */
export const STABLE_WALK_SORT = 'created_at';

/** `client.runs`: create, fetch, list, cancel and wait for runs. */
export class Runs extends RunFollowups {
  constructor(send: Send, download: DownloadFn) {
    super(send, download);
  }

  /**
   * Starts a run (`POST /agent/runs`). The body is validated first (limits included); the request carries an
   * Idempotency-Key that stays the same across retries, so a retry never makes a second run.
   */
  create(body: RunAgentRequest, options: RequestOptions = {}): APIPromise<RunAgentResponse> {
    return guard(() => {
      const valid = validate(RunAgentRequestSchema, body, 'run request');
      return this.send({
        method: 'POST',
        path: '/agent/runs',
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
        const valid = validate(ListRunsQuerySchema, query, 'list query');
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
