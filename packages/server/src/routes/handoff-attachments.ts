import type { AppRoute } from './app-context.js';

/** `GET /agent/runs/{runId}/handoff/attachments`: signed links to the files of the run's attachments directory. */
export const handoffAttachmentsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/handoff/attachments',
  auth: true,
  handle: ({ params, app, caller }) => app.reads.handoffAttachments(params.runId!, caller),
};
