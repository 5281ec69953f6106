import type { Route } from '../http/route.js';

/** `GET /agent/runs/{runId}/transcript`: a 302 to a short-lived link of the raw transcript. */
export const getTranscriptRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/transcript',
  auth: true,
  async handle({ res, params, app, caller }) {
    const run = await app.runs.getOrThrow(params.runId!, caller);
    const link = app.links.sign(`/downloads/transcripts/${encodeURIComponent(run.id)}`);
    res.writeHead(302, { location: `${app.publicUrl()}${link.path}`, 'content-length': 0, 'cache-control': 'no-store' });
    res.end();
  },
};
