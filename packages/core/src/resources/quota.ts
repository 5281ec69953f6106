import { PrincipalQuotaResponseSchema, type PrincipalQuotaResponse } from '../contract/principal-quota.js';
import type { APIPromise } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, type Send } from '../internal/resource-helpers.js';

/** `client.quota`: the calling principal's quotas (the server's `quotas:` section) and its use of them. */
export class Quota {
  constructor(private readonly send: Send) {}

  /** `GET /agent/quota`: runs in flight and queued, creates in the last minute, and spend today, each against its limit. */
  retrieve(options: RequestOptions = {}): APIPromise<PrincipalQuotaResponse> {
    return guard(() => this.send({ method: 'GET', path: '/agent/quota', schema: PrincipalQuotaResponseSchema, ...options }));
  }
}
