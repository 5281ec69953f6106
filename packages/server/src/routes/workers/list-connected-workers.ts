import { ConnectedWorkersResponseSchema } from '@agent-runs/core/contract';
import { json, output } from '../../openapi/openapi-parts.js';
import { unauthorized } from '../../openapi/problem-responses.js';
import type { AppRoute } from '../app-context.js';

/** `GET /agent/connected-self-hosted-workers`: the worker processes heard from lately. */
export const listConnectedWorkersRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/connected-self-hosted-workers',
  auth: true,
  openapi: () => ({
    operationId: 'listConnectedSelfHostedWorkers',
    summary: 'The self-hosted workers connected now',
    responses: { '200': { description: 'The connected workers', content: json(output(ConnectedWorkersResponseSchema)) }, ...unauthorized },
  }),
  handle({ app }) {
    return app.workers.connected();
  },
};
