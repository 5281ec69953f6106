import { ApiProblem } from '../http/api-problem.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';
import { hasArtifactResponse, toArtifactResponse } from '../runs/to-artifact.js';

/** `GET /agent/artifacts/{artifactUid}`: plans with content; files and screenshots with a signed, expiring download link. */
export const getArtifactRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/artifacts/:artifactUid',
  auth: true,
  async handle({ res, params, app, caller }) {
    const artifact = await app.artifacts.get(params.artifactUid!);
    // Readable by whoever may read its run, and by no one else (as if it did not exist).
    const run = artifact && (await app.store.get(artifact.runId));
    if (!artifact || !hasArtifactResponse(artifact) || !run || !app.runs.mayRead(caller.uid, run)) {
      throw new ApiProblem('resource_not_found', `No plan, file or screenshot artifact with uid "${params.artifactUid}".`);
    }
    const signed = artifact.type === 'PLAN' ? undefined : app.links.sign(`/downloads/artifacts/${encodeURIComponent(artifact.uid)}`);
    const link = signed && { url: `${app.publicUrl()}${signed.path}`, expiresAt: signed.expiresAt };
    sendJson(res, 200, toArtifactResponse(artifact, link));
  },
};
