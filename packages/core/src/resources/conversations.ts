import { ConversationResponseSchema, type ConversationResponse } from '../contract/conversation.js';
import {
  ConversationCheckRedirectResponseSchema,
  type ConversationCheckRedirectResponse,
} from '../contract/redirects.js';
import type { APIPromise } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, pathSegment, type Send } from '../internal/resource-helpers.js';

/** `client.conversations`: the conversations runs carry on. */
export class Conversations {
  constructor(private readonly send: Send) {}

  /**
   * A conversation's normalised messages across its runs (`GET /agent/conversations/{conversationId}`,
   * `getConversation` in the published contract): one step per execution, oldest first.
   */
  get(conversationId: string, options: RequestOptions = {}): APIPromise<ConversationResponse> {
    return guard(() =>
      this.send({
        method: 'GET',
        path: `/agent/conversations/${pathSegment('conversationId', conversationId)}`,
        schema: ConversationResponseSchema,
        ...options,
      }),
    );
  }

  /**
   * The session a conversation is shown in (`GET /agent/conversations/{conversationId}/redirect`);
   * `session_id` is absent when there is none.
   */
  checkRedirect(conversationId: string, options: RequestOptions = {}): APIPromise<ConversationCheckRedirectResponse> {
    return guard(() =>
      this.send({
        method: 'GET',
        path: `/agent/conversations/${pathSegment('conversationId', conversationId)}/redirect`,
        schema: ConversationCheckRedirectResponseSchema,
        ...options,
      }),
    );
  }
}
