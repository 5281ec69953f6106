import { buildRunTree, MAX_TREE_RUNS, type RunTreeNode } from '../tree/run-tree.js';
import { ListRunsQuerySchema, ListRunsResponseSchema, type ListRunsQuery } from '../contract/list-runs.js';
import { RunAgentRequestSchema, type RunAgentRequest } from '../contract/run-agent-request.js';
import { RunAgentResponseSchema, type RunAgentResponse } from '../contract/run-agent-response.js';
import { RunItemSchema, type RunItem } from '../contract/run-item.js';
import { APIPromise, type WithResponse } from '../internal/api-promise.js';
import { guard, runPath, validate, type Send } from '../internal/resource-helpers.js';
import type { RequestOptions } from '../internal/options.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import type { WaitOptions } from '../wait/wait-options.js';
import { followRun, type FollowOptions, type FollowOutcome } from '../wait/follow-run.js';
import { waitOnStream } from '../wait/wait-on-stream.js';
import type { OpenEventStream } from '../internal/open-event-stream.js';
import { RunOutputPageSchema, type RunOutputPage } from '../contract/run-event-schemas.js';
import { followRunEvents, type RunEventDeps, type RunEventsOptions, type RunStreamEvent } from '../wait/follow-run-events.js';
import { PagePromise, RunsPage } from './runs-page.js';
import { downloadText, type DownloadFn } from '../internal/download-url.js';
import { ConversationResponseSchema, type ConversationResponse } from '../contract/conversation.js';
import { RunFollowupRequestSchema, RunFollowupResponseSchema, type RunFollowupRequest, type RunFollowupResponse } from '../contract/followup.js';
import { HandoffAttachmentsResponseSchema, type HandoffAttachmentsResponse } from '../contract/handoff-attachments.js';
import { APIResponseValidationError } from '../errors/connection-errors.js';
import { z as zod } from 'zod';

const CancelResponseSchema = zod.string();

export interface CreateAndWaitOptions extends WaitOptions {
  /** Called once the run exists, before waiting: log its id and link here. */
  onCreate?: ((created: RunAgentResponse) => void | Promise<void>) | undefined;
  /** Options for the create request. */
  createOptions?: RequestOptions | undefined;
}

/** A run's creation time never changes, so a walk in its order cannot lose or repeat a run. */
export const STABLE_WALK_SORT = 'created_at';

/** `client.runs`: create, fetch, list, cancel and wait for runs; continue them and read what was said. */
export class Runs {
  private readonly eventDeps: RunEventDeps;

  constructor(
    private readonly send: Send,
    private readonly download: DownloadFn,
    openEventStream: OpenEventStream,
  ) {
    this.eventDeps = {
      open: openEventStream,
      getRun: (id, opts) => this.get(id, opts).withResponse(),
      support: { streams: undefined },
    };
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

  /**
   * The run and every run it started, and theirs (by `parent_run_id`), as a tree: the runs
   * listed with `ancestor_run_id`, at most `MAX_TREE_RUNS`. Undefined members never: a run
   * that is not found is a NotFoundError, as `get` gives it.
   */
  async tree(runId: string, options: RequestOptions = {}): Promise<RunTreeNode & { truncated: boolean }> {
    const root = await this.get(runId, options);
    const runs: RunItem[] = [];
    let truncated = false;
    for await (const run of this.list({ ancestor_run_id: runId, limit: 100 }, options)) {
      if (runs.length >= MAX_TREE_RUNS) {
        truncated = true;
        break;
      }
      runs.push(run);
    }
    if (!runs.some((run) => run.run_id === root.run_id)) runs.push(root);
    return { ...buildRunTree(runs, root.run_id)!, truncated };
  }

  /** Cancels a queued or running run; resolves with its id. */
  cancel(runId: string, options: RequestOptions = {}): APIPromise<string> {
    return guard(() =>
      this.send({ method: 'POST', path: `${runPath(runId)}/cancel`, schema: CancelResponseSchema, ...options }),
    );
  }

  /**
   * Waits until the run is terminal (SUCCEEDED, FAILED, ERROR, CANCELLED or BLOCKED) and
   * returns it: on the run's event stream where the server has one (a change is seen at
   * once, `onOutput` gets the agent's output), by polling otherwise. Throws
   * WaitTimeoutError, carrying the last run seen, when time runs out.
   */
  wait(runId: string, options: WaitOptions = {}): Promise<RunItem> {
    try {
      runPath(runId);
    } catch (error) {
      return Promise.reject(error);
    }
    return waitOnStream(this.eventDeps, runId, options);
  }

  /**
   * Follows the run to its end as `wait` does, and says what a person should see: each
   * change comes with `statusChanged` (a new state or status message) and `newSessionLink`
   * (the link, once); a timeout or an abort of `signal` resolves as an outcome.
   */
  follow(runId: string, options: FollowOptions = {}): Promise<FollowOutcome> {
    return followRun((id, waitOptions) => this.wait(id, waitOptions), runId, options);
  }

  /**
   * The run's events as they happen: `for await (const event of client.runs.events(id))`
   * yields `run` (the whole run, on each change), `output` (the agent's output), `skipped`,
   * `artifact` and `followup` events, and ends after the terminal `run` event. A dropped
   * connection is resumed from the last event id; a server without the stream is polled
   * (yielding `run` events), and the client remembers which kind of server it talks to.
   */
  events(runId: string, options: RunEventsOptions = {}): AsyncIterable<RunStreamEvent> {
    runPath(runId);
    return followRunEvents(this.eventDeps, runId, options);
  }

  /** Whether the server streams run events: undefined until the first `events` or `wait` finds out. */
  get hasEventStream(): boolean | undefined {
    return this.eventDeps.support.streams;
  }

  /**
   * The agent's stored output (`GET /agent/runs/{runId}/output`, an extension of the local
   * server), every page after `since` read and joined: `text` is the output in order.
   */
  async output(runId: string, options: RequestOptions & { since?: number | undefined } = {}): Promise<RunOutputPage & { text: string }> {
    const { since = 0, ...requestOptions } = options;
    const path = `${runPath(runId)}/output`;
    let page = (await this.send({ method: 'GET', path, query: { since }, schema: RunOutputPageSchema, ...requestOptions })).data;
    const chunks = [...page.chunks];
    const dropped = page.dropped;
    while (page.has_more) {
      page = (await this.send({ method: 'GET', path, query: { since: page.next_since }, schema: RunOutputPageSchema, ...requestOptions })).data;
      chunks.push(...page.chunks);
    }
    return {
      run_id: page.run_id,
      chunks,
      next_since: page.next_since,
      has_more: false,
      dropped,
      text: chunks.map((chunk) => chunk.text).join(''),
    };
  }

  /** `create`, then `wait`: resolves with the terminal run. */
  async createAndWait(body: RunAgentRequest, options: CreateAndWaitOptions = {}): Promise<RunItem> {
    const { onCreate, createOptions, ...waitOptions } = options;
    const created = await this.create(body, {
      ...createOptions,
      signal: options.signal ?? createOptions?.signal,
    });
    await onCreate?.(created);
    return this.wait(created.run_id, waitOptions);
  }

  /**
   * Sends a run a follow-up (`POST /agent/runs/{runId}/followups`), accepted in any state:
   * a queued run starts with it, a running one is told, an ended one runs again.
   * It carries an Idempotency-Key, the same on each retry, so a retry after a lost answer
   * does not deliver the message twice (on servers that honour the key, as the local one does).
   */
  followup(runId: string, body: RunFollowupRequest, options: RequestOptions = {}): APIPromise<RunFollowupResponse> {
    return guard(() => {
      const valid = validate(RunFollowupRequestSchema, body, 'follow-up');
      return this.send({
        method: 'POST',
        path: `${runPath(runId)}/followups`,
        body: valid,
        schema: RunFollowupResponseSchema,
        idempotent: true,
        ...options,
      });
    });
  }

  /** The run's normalised conversation (`GET /agent/runs/{runId}/conversation`). */
  conversation(runId: string, options: RequestOptions = {}): APIPromise<ConversationResponse> {
    return guard(() => this.send({ method: 'GET', path: `${runPath(runId)}/conversation`, schema: ConversationResponseSchema, ...options }));
  }

  /**
   * The raw transcript (`GET /agent/runs/{runId}/transcript`): follows the 302 to the
   * time-limited download and resolves with its text (at most 64 MiB).
   */
  transcript(runId: string, options: RequestOptions = {}): APIPromise<string> {
    return guard(async () => {
      const first = await this.send<unknown>({ method: 'GET', path: `${runPath(runId)}/transcript`, ...options });
      const location = first.response.headers.location;
      const target = Array.isArray(location) ? location[0] : location;
      if (first.response.status < 300 || first.response.status >= 400 || !target) {
        throw new APIResponseValidationError(`${first.response.status} from GET ${first.response.url}: expected a redirect to the transcript`, first.response.status);
      }
      const url = new URL(target, first.response.url).toString();
      const text = await downloadText(this.download, url, options.signal);
      return { data: text, response: first.response };
    });
  }

  /** Links to the files of the run's last execution (`GET /agent/runs/{runId}/handoff/attachments`). */
  handoffAttachments(runId: string, options: RequestOptions = {}): APIPromise<HandoffAttachmentsResponse> {
    return guard(() =>
      this.send({ method: 'GET', path: `${runPath(runId)}/handoff/attachments`, schema: HandoffAttachmentsResponseSchema, ...options }),
    );
  }
}
