import type { AppRoute } from './app-context.js';

/** `GET /agent/artifacts/{artifactUid}`: plans with content; files and screenshots with a signed, expiring download link. */
export const getArtifactRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/artifacts/:artifactUid',
  auth: true,
  handle: ({ params, app, caller }) => app.reads.artifact(params.artifactUid!, caller),
};
