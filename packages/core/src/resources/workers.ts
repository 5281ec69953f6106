import { ConnectedWorkersResponseSchema, type ConnectedWorkersResponse } from '../contract/connected-worker.js';
import type { APIPromise } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, type Send } from '../internal/resource-helpers.js';

/** `client.workers`: the self-hosted workers connected now (`agent_config.worker_host` names one by `worker_host`). */
export class Workers {
  constructor(private readonly send: Send) {}

  /** `GET /agent/connected-self-hosted-workers`: every connected worker process, by worker_host then instance. */
  list(options: RequestOptions = {}): APIPromise<ConnectedWorkersResponse> {
    return guard(() =>
      this.send({ method: 'GET', path: '/agent/connected-self-hosted-workers', schema: ConnectedWorkersResponseSchema, ...options }),
    );
  }
}
