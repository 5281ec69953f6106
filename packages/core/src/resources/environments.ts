import {
  ListEnvironmentsQuerySchema,
  ListEnvironmentsResponseSchema,
  type ListEnvironmentsQuery,
  type ListEnvironmentsResponse,
} from '../contract/cloud-environment.js';
import type { APIPromise } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, validate, type Send } from '../internal/resource-helpers.js';

/** `client.environments`: where runs execute (`config.environment_id` names one by `uid`). */
export class Environments {
  constructor(private readonly send: Send) {}

  /** `GET /agent/environments`, optionally `{ sort_by: 'name' | 'last_updated' }`. */
  list(query: ListEnvironmentsQuery = {}, options: RequestOptions = {}): APIPromise<ListEnvironmentsResponse> {
    return guard(() =>
      this.send({
        method: 'GET',
        path: '/agent/environments',
        query: validate(ListEnvironmentsQuerySchema, query, 'environments query'),
        schema: ListEnvironmentsResponseSchema,
        ...options,
      }),
    );
  }
}
