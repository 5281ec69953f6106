import { empty } from '../http/reply.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/runs/{runId}/transcript`: a 302 to a short-lived link of the raw transcript. */
export const getTranscriptRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/transcript',
  auth: true,
  async handle({ params, app, caller }) {
    const location = await app.reads.transcriptLink(params.runId!, caller);
    return empty(302, { location, 'content-length': 0, 'cache-control': 'no-store' });
  },
};
