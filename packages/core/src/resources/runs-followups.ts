import { ConversationResponseSchema, type ConversationResponse } from '../contract/conversation.js';
import { RunFollowupRequestSchema, RunFollowupResponseSchema, type RunFollowupRequest, type RunFollowupResponse } from '../contract/followup.js';
import { HandoffAttachmentsResponseSchema, type HandoffAttachmentsResponse } from '../contract/handoff-attachments.js';
import type { APIPromise } from '../internal/api-promise.js';
import { guard, runPath, validate, type Send } from '../internal/resource-helpers.js';
import type { RequestOptions } from '../internal/options.js';
import { APIResponseValidationError } from '../errors/connection-errors.js';
import { downloadText, type DownloadFn } from '../internal/download-url.js';


/** The methods of `client.runs` that continue a run and read what was said. */
export class RunFollowups {
  constructor(
    protected readonly send: Send,
    protected readonly download: DownloadFn,
  ) {}

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
