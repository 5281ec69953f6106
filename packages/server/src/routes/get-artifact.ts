import { ok, problem } from '../openapi/openapi-parts.js';
import { unauthorized } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/artifacts/{artifactUid}`: plans with content; files and screenshots with a signed, expiring download link. */
export const getArtifactRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/artifacts/:artifactUid',
  auth: true,
  openapi: {
    operationId: 'getArtifact',
    summary: 'One plan, file or screenshot artifact; files and screenshots with a signed download_url that expires',
    responses: { ...ok('The artifact', 'ArtifactResponse'), ...unauthorized, '404': problem('No such artifact') },
  },
  handle: ({ params, app, caller }) => app.reads.artifact(params.artifactUid!, caller),
};
