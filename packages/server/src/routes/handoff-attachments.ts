import type { Route } from '../http/route.js';

/** `GET /agent/runs/{runId}/handoff/attachments`: signed links to the files of the run's attachments directory. */
export const handoffAttachmentsRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/handoff/attachments',
  auth: true,
  handle: ({ params, app, caller }) => app.reads.handoffAttachments(params.runId!, caller),
};
