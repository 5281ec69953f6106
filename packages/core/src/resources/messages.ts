import { z } from 'zod';
import {
  AgentMessageListSchema,
  AgentMessageSchema,
  ListAgentMessagesQuerySchema,
  SendAgentMessageRequestSchema,
  SendAgentMessageResponseSchema,
  type AgentMessage,
  type AgentMessageHeader,
  type SendAgentMessageRequest,
  type SendAgentMessageResponse,
} from '../contract/agent-message.js';
import type { APIPromise } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, pathSegment, validate, type Send } from '../internal/resource-helpers.js';

// A delivered mark answers 204 with no body.
const NoContentSchema = z.undefined().transform((): void => undefined);

export interface ListAgentMessagesQuery {
  /** Only the messages not read yet. */
  unread?: boolean;
  /** Only those sent at or after this time (RFC 3339). */
  since?: string;
  /** At most this many (1–100, default 50). */
  limit?: number;
}

const messagePath = (id: string, action: 'read' | 'delivered') => `/agent/messages/${pathSegment('messageId', id)}/${action}`;

/**
 * `client.messages`: the run-to-run mailbox. A send is not retried once sent (it would send
 * twice); a list, a read and a delivered mark are safe to repeat.
 */
export class Messages {
  constructor(private readonly transport: Send) {}

  /** `POST /agent/messages`: one message to each run of `to`; answers their ids in that order. */
  send(body: SendAgentMessageRequest, options: RequestOptions = {}): APIPromise<SendAgentMessageResponse> {
    return guard(() =>
      this.transport({
        method: 'POST',
        path: '/agent/messages',
        body: validate(SendAgentMessageRequestSchema, body, 'message'),
        schema: SendAgentMessageResponseSchema,
        ...options,
      }),
    );
  }

  /** `GET /agent/messages/{runId}`: the run's inbox, message headers oldest first. */
  list(runId: string, query: ListAgentMessagesQuery = {}, options: RequestOptions = {}): APIPromise<AgentMessageHeader[]> {
    return guard(() => {
      const path = `/agent/messages/${pathSegment('runId', runId)}`;
      const wire = { ...query, unread: query.unread === undefined ? undefined : String(query.unread) };
      const valid = validate(ListAgentMessagesQuerySchema, Object.fromEntries(Object.entries(wire).filter(([, v]) => v !== undefined)), 'messages query');
      return this.transport({ method: 'GET', path, query: valid, schema: AgentMessageListSchema, ...options });
    });
  }

  /** `POST /agent/messages/{messageId}/read`: the message in full; the server sets its read_at. Retried: a second read changes nothing. */
  read(messageId: string, options: RequestOptions = {}): APIPromise<AgentMessage> {
    return guard(() => this.transport({ method: 'POST', path: messagePath(messageId, 'read'), schema: AgentMessageSchema, idempotent: true, ...options }));
  }

  /** `POST /agent/messages/{messageId}/delivered`: sets delivered_at if not set yet; idempotent. */
  delivered(messageId: string, options: RequestOptions = {}): APIPromise<void> {
    return guard(() => this.transport({ method: 'POST', path: messagePath(messageId, 'delivered'), schema: NoContentSchema, idempotent: true, ...options }));
  }
}
