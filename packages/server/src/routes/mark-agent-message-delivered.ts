import { empty } from '../http/reply.js';
import { problem } from '../openapi/openapi-parts.js';
import { unauthorized } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/messages/{messageId}/delivered`: sets delivered_at if not set yet; idempotent. */
export const markAgentMessageDeliveredRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/messages/:messageId/delivered',
  auth: true,
  runToken: true,
  openapi: {
    operationId: 'markAgentMessageDelivered',
    summary: 'Mark a message delivered (sets delivered_at if not set yet)',
    responses: { '204': { description: 'Delivered' }, ...unauthorized, '404': problem('No such message, or not the caller’s') },
  },
  async handle({ params, app, caller, runToken }) {
    if (runToken) await app.scope.holder(runToken);
    await app.mailbox.delivered(params.messageId!, caller, runToken?.runId);
    return empty(204);
  },
};
