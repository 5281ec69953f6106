import { ok } from '../openapi/openapi-parts.js';
import { runPartProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/runs/{runId}/handoff/attachments`: signed links to the files of the run's attachments directory. */
export const handoffAttachmentsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/handoff/attachments',
  auth: true,
  openapi: {
    operationId: 'listHandoffAttachments',
    summary: "Short-lived links to the files of the run's attachments directory",
    responses: { ...ok('The files', 'HandoffAttachmentsResponse'), ...runPartProblems },
  },
  handle: ({ params, app, caller }) => app.reads.handoffAttachments(params.runId!, caller),
};
