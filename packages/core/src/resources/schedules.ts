import type { z } from 'zod';
import {
  ListSchedulesQuerySchema,
  ListSchedulesResponseSchema,
  ScheduleCreateRequestSchema,
  ScheduleDeleteResponseSchema,
  ScheduledAgentItemSchema,
  ScheduleUpdateRequestSchema,
  type ListSchedulesQuery,
  type ListSchedulesResponse,
  type ScheduleCreateRequest,
  type ScheduleDeleteResponse,
  type ScheduledAgentItem,
  type ScheduleUpdateRequest,
} from '../contract/schedule.js';
import type { APIPromise } from '../internal/api-promise.js';
import { ListPromise } from '../internal/list-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, pathSegment, validate, type Send } from '../internal/resource-helpers.js';

const schedulePath = (id: string) => `/agent/schedules/${pathSegment('scheduleId', id)}`;

/**
 * `client.schedules`: runs started on a cron. A create is not retried once sent (the
 * service keeps no key for it); update, delete, pause and resume are safe to repeat.
 */
export class Schedules {
  constructor(private readonly send: Send) {}

  /** `POST /agent/schedules`: `{ name, cron_schedule, prompt }` and optional config. */
  create(body: ScheduleCreateRequest, options: RequestOptions = {}): APIPromise<ScheduledAgentItem> {
    return guard(() =>
      this.send({
        method: 'POST',
        path: '/agent/schedules',
        body: validate(ScheduleCreateRequestSchema, body, 'schedule'),
        schema: ScheduledAgentItemSchema,
        ...options,
      }),
    );
  }

  /** `GET /agent/schedules/{scheduleId}`. */
  get(scheduleId: string, options: RequestOptions = {}): APIPromise<ScheduledAgentItem> {
    return guard(() => this.send({ method: 'GET', path: schedulePath(scheduleId), schema: ScheduledAgentItemSchema, ...options }));
  }

  /** `PUT /agent/schedules/{scheduleId}`: the whole definition (`name`, `cron_schedule`, `enabled`, `prompt`, ...). */
  update(scheduleId: string, body: ScheduleUpdateRequest, options: RequestOptions = {}): APIPromise<ScheduledAgentItem> {
    return guard(() =>
      this.send({
        method: 'PUT',
        path: schedulePath(scheduleId),
        body: validate(ScheduleUpdateRequestSchema, body, 'schedule'),
        schema: ScheduledAgentItemSchema,
        ...options,
      }),
    );
  }

  /**
   * `GET /agent/schedules`: a page of the caller's schedules, oldest first. Await it for the
   * first page, or `for await (const schedule of client.schedules.list())` for every one.
   */
  list(query: ListSchedulesQuery = {}, options: RequestOptions = {}): ListPromise<ListSchedulesResponse, ScheduledAgentItem> {
    let valid: z.output<typeof ListSchedulesQuerySchema> = {};
    const fetchPage = (q: typeof valid) =>
      this.send({ method: 'GET', path: '/agent/schedules', query: q, schema: ListSchedulesResponseSchema, ...options });
    return new ListPromise(
      () => fetchPage((valid = validate(ListSchedulesQuerySchema, query, 'schedules query'))),
      (body) => body.schedules,
      (cursor) => fetchPage({ ...valid, cursor }),
    );
  }

  /** `DELETE /agent/schedules/{scheduleId}`; the runs it started stay. */
  delete(scheduleId: string, options: RequestOptions = {}): APIPromise<ScheduleDeleteResponse> {
    return guard(() => this.send({ method: 'DELETE', path: schedulePath(scheduleId), schema: ScheduleDeleteResponseSchema, ...options }));
  }

  /** Stops firing until resumed (`POST .../pause`); pausing twice is harmless, so it is retried. */
  pause(scheduleId: string, options: RequestOptions = {}): APIPromise<ScheduledAgentItem> {
    return guard(() =>
      this.send({ method: 'POST', path: `${schedulePath(scheduleId)}/pause`, schema: ScheduledAgentItemSchema, idempotent: true, ...options }),
    );
  }

  /** Fires again from the next tick (`POST .../resume`); retried like pause. */
  resume(scheduleId: string, options: RequestOptions = {}): APIPromise<ScheduledAgentItem> {
    return guard(() =>
      this.send({ method: 'POST', path: `${schedulePath(scheduleId)}/resume`, schema: ScheduledAgentItemSchema, idempotent: true, ...options }),
    );
  }
}
