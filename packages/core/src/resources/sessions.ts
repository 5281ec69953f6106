import { SessionCheckRedirectResponseSchema, type SessionCheckRedirectResponse } from '../contract/redirects.js';
import type { APIPromise } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, pathSegment, type Send } from '../internal/resource-helpers.js';

/** `client.sessions`: the sessions runs are shown in. */
export class Sessions {
  constructor(private readonly send: Send) {}

  /**
   * The conversation a session belongs to (`GET /agent/sessions/{sessionUuid}/redirect`);
   * `conversation_id` is absent when the session has none.
   */
  checkRedirect(sessionUuid: string, options: RequestOptions = {}): APIPromise<SessionCheckRedirectResponse> {
    return guard(() =>
      this.send({
        method: 'GET',
        path: `/agent/sessions/${pathSegment('sessionUuid', sessionUuid)}/redirect`,
        schema: SessionCheckRedirectResponseSchema,
        ...options,
      }),
    );
  }
}
