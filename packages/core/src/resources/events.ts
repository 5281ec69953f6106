import {
  AgentEventListSchema,
  PollAgentEventsQuerySchema,
  ReportAgentEventRequestSchema,
  ReportAgentEventResponseSchema,
  type AgentEvent,
  type ReportAgentEventRequest,
  type ReportAgentEventResponse,
} from '../contract/agent-event.js';
import type { APIPromise } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import { guard, pathSegment, validate, type Send } from '../internal/resource-helpers.js';

export interface PollAgentEventsQuery {
  /** The watched runs. */
  run_ids: readonly string[];
  /** Only events after this sequence number (the last one seen); default 0. */
  since?: number;
  /** At most this many (1–500, default 100). */
  limit?: number;
}

/** `client.events`: the lifecycle event feed of runs, by sequence number. */
export class Events {
  constructor(private readonly send: Send) {}

  /** `GET /agent/events`: the watched runs' events after `since`, by sequence. */
  list(query: PollAgentEventsQuery, options: RequestOptions = {}): APIPromise<AgentEvent[]> {
    return guard(() => {
      if (!Array.isArray(query?.run_ids) || !query.run_ids.length || query.run_ids.some((id) => typeof id !== 'string' || !id.trim())) {
        throw new RequestValidationError('events query', [{ path: 'run_ids', message: 'must be a non-empty array of run ids' }]);
      }
      const { since, limit } = validate(PollAgentEventsQuerySchema, { since: query.since, limit: query.limit }, 'events query');
      return this.send({ method: 'GET', path: '/agent/events', query: { run_ids: query.run_ids, since, limit }, schema: AgentEventListSchema, ...options });
    });
  }

  /** `POST /agent/events/{runId}`: reports one lifecycle event; answers its sequence. Not retried once sent (it would be recorded twice). */
  report(runId: string, body: ReportAgentEventRequest, options: RequestOptions = {}): APIPromise<ReportAgentEventResponse> {
    return guard(() =>
      this.send({
        method: 'POST',
        path: `/agent/events/${pathSegment('runId', runId)}`,
        body: validate(ReportAgentEventRequestSchema, body, 'event'),
        schema: ReportAgentEventResponseSchema,
        ...options,
      }),
    );
  }
}
