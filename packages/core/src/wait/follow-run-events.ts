import type { EventSourceMessage } from 'eventsource-parser';
import { isTerminalState } from '../contract/run-state.js';
import { RunItemSchema, type RunItem } from '../contract/run-item.js';
import { RunOutputDataSchema, RunSkippedDataSchema, type RunOutputData, type RunSkippedData } from '../contract/run-event-schemas.js';
import { formatIssues } from '../contract/format-issues.js';
import type { WithResponse } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { isRetryableStatus } from '../internal/retry-policy.js';
import { backoffDelay, retryAfterMs } from '../internal/retry-timing.js';
import { sleep } from '../internal/sleep.js';
import { APIError } from '../errors/api-error.js';
import { APIConnectionError, APIResponseValidationError, APIUserAbortError } from '../errors/connection-errors.js';
import type { OpenEventStream } from '../internal/open-event-stream.js';
import { sseMessages } from '../internal/sse-messages.js';
import { pollRun } from './poll-run.js';

/** One event of a run, as `client.runs.events()` yields it. */
export type RunStreamEvent =
  | { type: 'run'; /** Undefined when polled, or for the run sent after a gap. */ id: number | undefined; data: RunItem }
  | { type: 'output'; id: number; data: RunOutputData }
  | { type: 'skipped'; id: undefined; data: RunSkippedData }
  | { type: 'artifact'; id: number; data: unknown }
  | { type: 'followup'; id: number; data: unknown };

export interface RunEventsOptions {
  /** Stops the iteration with an APIUserAbortError. */
  signal?: AbortSignal | undefined;
  /** Resume after this event id (the `id` of the last event handled). */
  lastEventId?: number | undefined;
  /** Against a server without the stream: the first delay between polls in ms. Default 1000. */
  pollInterval?: number | undefined;
  /** Against a server without the stream: the longest delay between polls. Default 10 000. */
  maxPollInterval?: number | undefined;
  /** Failed reconnects in a row before the iteration throws. Default 10. */
  maxReconnects?: number | undefined;
  /** Silence (not even a heartbeat) after which the connection counts as dropped, in ms. Default 45 000. */
  idleTimeout?: number | undefined;
  /** Options for the polls of a server without the stream. */
  requestOptions?: Omit<RequestOptions, 'signal' | 'idempotencyKey'> | undefined;
}

export type GetRun = (runId: string, options: RequestOptions) => Promise<WithResponse<RunItem>>;

/** Whether the server streams run events; learned on the first try and kept for the client's life. */
export interface StreamSupport {
  streams: boolean | undefined;
}

export interface RunEventDeps {
  open: OpenEventStream;
  getRun: GetRun;
  support: StreamSupport;
}

const DEFAULT_MAX_RECONNECTS = 10;
const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
/** The longest delay a Node timer takes: polls with no deadline of their own wait at most this. */
const NO_DEADLINE_MS = 2_147_483_647;
/** A poll with no deadline still gives up on one silent request after this. */
const POLL_REQUEST_TIMEOUT_MS = 60_000;

function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: any } }, message: EventSourceMessage): T {
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch (error) {
    throw new APIResponseValidationError(`The ${message.event} event ${message.id ?? ''} is not valid JSON.`, 200, { cause: error });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new APIResponseValidationError(`The ${message.event} event does not match the contract: ${formatIssues(parsed.error, 'data').join('; ')}`, 200, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** A typed event, or undefined for a name this client does not know (newer servers may send more). */
function toEvent(message: EventSourceMessage): RunStreamEvent | undefined {
  const id = message.id !== undefined && /^\d+$/.test(message.id) ? Number(message.id) : undefined;
  switch (message.event) {
    case 'run':
      return { type: 'run', id, data: parse(RunItemSchema, message) };
    case 'output':
      return id === undefined ? undefined : { type: 'output', id, data: parse(RunOutputDataSchema, message) };
    case 'skipped':
      return { type: 'skipped', id: undefined, data: parse(RunSkippedDataSchema, message) };
    case 'artifact':
    case 'followup':
      return id === undefined ? undefined : { type: message.event, id, data: JSON.parse(message.data) as unknown };
    default:
      return undefined;
  }
}

function isTransient(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  return error instanceof APIError && isRetryableStatus(error.status, error.body);
}

/** An AbortController that also aborts when `outer` does. */
function linked(outer: AbortSignal | undefined): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  if (!outer) return { controller, unlink: () => {} };
  const onAbort = () => controller.abort(outer.reason);
  if (outer.aborted) onAbort();
  outer.addEventListener('abort', onAbort, { once: true });
  return { controller, unlink: () => outer.removeEventListener('abort', onAbort) };
}

/**
 * A run's events: from the server's stream, reconnecting with `Last-Event-ID` after a drop
 * (with back-off), or, against a server without the stream (404 or 405 on the first try),
 * from polls that yield a `run` event per change. Ends after the terminal `run` event.
 */
export async function* followRunEvents(deps: RunEventDeps, runId: string, options: RunEventsOptions = {}): AsyncGenerator<RunStreamEvent> {
  if (deps.support.streams === false) {
    yield* pollRunEvents(deps, runId, options);
    return;
  }
  const path = `/agent/runs/${encodeURIComponent(runId)}/events`;
  const maxReconnects = options.maxReconnects ?? DEFAULT_MAX_RECONNECTS;
  const idleTimeout = options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_MS;
  let lastEventId = options.lastEventId;
  let failures = 0;
  let connected = false;
  for (;;) {
    if (options.signal?.aborted) throw new APIUserAbortError(undefined, { cause: options.signal.reason });
    const { controller, unlink } = linked(options.signal);
    let stream;
    try {
      stream = await deps.open({ path, lastEventId, signal: controller.signal });
    } catch (error) {
      unlink();
      if (options.signal?.aborted) throw new APIUserAbortError(undefined, { cause: error });
      const missing = error instanceof APIError && (error.status === 404 || error.status === 405);
      if (missing && !connected && deps.support.streams !== true) {
        yield* pollRunEvents(deps, runId, options, true);
        return;
      }
      if (!isTransient(error) || failures >= maxReconnects) throw error;
      const asked = error instanceof APIError ? retryAfterMs(error.headers) : undefined;
      await sleep(asked ?? backoffDelay(failures++), options.signal);
      continue;
    }
    connected = true;
    deps.support.streams = true;
    let lastActivity = Date.now();
    let received = 0;
    // One check a few times per idle period, not a timer reset per chunk.
    const watchdog = setInterval(() => {
      if (Date.now() - lastActivity > idleTimeout) controller.abort(new Error('idle'));
    }, Math.max(10, Math.floor(idleTimeout / 3)));
    watchdog.unref();
    try {
      for await (const message of sseMessages(stream.body, () => (lastActivity = Date.now()))) {
        if (message.id !== undefined && /^\d+$/.test(message.id)) lastEventId = Number(message.id);
        const event = toEvent(message);
        if (!event) continue;
        received++;
        failures = 0;
        yield event;
        // Time the consumer spent on the event is not silence from the server.
        lastActivity = Date.now();
        if (event.type === 'run' && isTerminalState(event.data.state)) return;
      }
    } catch (error) {
      if (options.signal?.aborted) throw new APIUserAbortError(undefined, { cause: error });
      if (error instanceof APIResponseValidationError) throw error;
      // Dropped or silent: reconnect below.
    } finally {
      clearInterval(watchdog);
      stream.close();
      unlink();
    }
    if (received === 0 && lastEventId !== undefined) {
      // Ended with nothing new: the run may be over and its last event already handled.
      const { data: run } = await deps.getRun(runId, { ...options.requestOptions, signal: options.signal });
      if (isTerminalState(run.state)) {
        yield { type: 'run', id: undefined, data: run };
        return;
      }
    }
    if (failures >= maxReconnects) {
      throw new APIConnectionError(`The event stream of run ${runId} dropped ${failures + 1} times in a row; check the connection to the server.`);
    }
    await sleep(backoffDelay(failures++), options.signal);
  }
}

/** Polls, yielding the run on every change; `learn` records the server as one without the stream once a poll succeeds. */
async function* pollRunEvents(deps: RunEventDeps, runId: string, options: RunEventsOptions, learn = false): AsyncGenerator<RunStreamEvent> {
  const queue: RunItem[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  let failure: unknown;
  const { controller, unlink } = linked(options.signal);
  const polling = pollRun(deps.getRun, runId, {
    signal: controller.signal,
    timeout: NO_DEADLINE_MS,
    pollInterval: options.pollInterval,
    maxPollInterval: options.maxPollInterval,
    requestOptions: { timeout: POLL_REQUEST_TIMEOUT_MS, ...options.requestOptions },
    onUpdate: ({ run }) => {
      if (learn) deps.support.streams = false;
      queue.push(run);
      wake?.();
    },
  }).then(
    () => {
      settled = true;
      wake?.();
    },
    (error: unknown) => {
      settled = true;
      failure = error;
      wake?.();
    },
  );
  try {
    for (;;) {
      while (queue.length) {
        const run = queue.shift()!;
        yield { type: 'run', id: undefined, data: run };
        if (isTerminalState(run.state)) return;
      }
      if (settled) {
        if (failure) throw failure;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    controller.abort();
    unlink();
    await polling;
  }
}
