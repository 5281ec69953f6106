import { AgentMessageSchema } from '@agent-runs/core/contract';
import { json, output, problem } from '../openapi/openapi-parts.js';
import { unauthorized } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/messages/{messageId}/read`: the message in full; sets read_at. */
export const readAgentMessageRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/messages/:messageId/read',
  auth: true,
  openapi: () => ({
    operationId: 'readAgentMessage',
    summary: 'Read a message in full; sets its read_at (and delivered_at) if not set yet',
    responses: { '200': { description: 'The message', content: json(output(AgentMessageSchema)) }, ...unauthorized, '404': problem('No such message, or not the caller’s') },
  }),
  handle: ({ params, app, caller }) => app.mailbox.read(params.messageId!, caller),
};
