import { SendAgentMessageRequestSchema, SendAgentMessageResponseSchema } from '@agent-runs/core/contract';
import { readJsonBody } from '../http/read-json-body.js';
import { input, json, output, problem } from '../openapi/openapi-parts.js';
import { runProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `POST /agent/messages`: one message to each recipient run. */
export const sendAgentMessageRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/agent/messages',
  auth: true,
  runToken: true,
  openapi: () => ({
    operationId: 'sendAgentMessage',
    summary: 'Send a message from one run to one or more runs (each recipient gets its own message; a running one also in its inbox file)',
    requestBody: { required: true, content: json(input(SendAgentMessageRequestSchema)) },
    responses: {
      '200': { description: 'One message id per recipient, in the order of `to`', content: json(output(SendAgentMessageResponseSchema)) },
      '422': problem('A recipient has ended, or its inbox is full of unread messages'),
      ...runProblems,
    },
  }),
  async handle({ req, app, caller, runToken }) {
    const body = await readJsonBody(req, app.maxBodyBytes);
    return app.mailbox.send(runToken ? await app.scope.sendRequest(runToken, body) : body, caller);
  },
};
