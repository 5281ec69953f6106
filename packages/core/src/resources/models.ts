import { ListModelsResponseSchema, type ListModelsResponse } from '../contract/list-models.js';
import type { APIPromise } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, type Send } from '../internal/resource-helpers.js';

/** `client.models`: the models runs can use (`config.model_id` names one by `id`). */
export class Models {
  constructor(private readonly send: Send) {}

  /** `GET /agent/models`. */
  list(options: RequestOptions = {}): APIPromise<ListModelsResponse> {
    return guard(() => this.send({ method: 'GET', path: '/agent/models', schema: ListModelsResponseSchema, ...options }));
  }
}
