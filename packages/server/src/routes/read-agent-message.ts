import { AgentMessageSchema } from '@agent-runs/core/contract';
import { json, output, problem } from '../openapi/openapi-parts.js';
import { unauthorized } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/messages/{messageId}/read`: the message in full; sets read_at. */
export const readAgentMessageRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/messages/:messageId/read',
  auth: true,
  runToken: true,
  openapi: () => ({
    operationId: 'readAgentMessage',
    summary: 'Read a message in full; sets its read_at (and delivered_at) if not set yet',
    responses: { '200': { description: 'The message', content: json(output(AgentMessageSchema)) }, ...unauthorized, '404': problem('No such message, or not the caller’s') },
  }),
  async handle({ params, app, caller, runToken }) {
    // A run token reads the messages sent to its run only.
    if (runToken) await app.scope.holder(runToken);
    return app.mailbox.read(params.messageId!, caller, runToken?.runId);
  },
};
