import { empty } from '../http/reply.js';
import { runPartProblems } from '../openapi/problem-responses.js';
import type { AppRoute } from './app-context.js';

/** `GET /agent/runs/{runId}/transcript`: a 302 to a short-lived link of the raw transcript. */
export const getTranscriptRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/transcript',
  auth: true,
  openapi: {
    operationId: 'getRunTranscript',
    summary: 'A 302 to a short-lived download of the raw transcript (JSON lines)',
    responses: { '302': { description: 'Redirect to the download', headers: { Location: { schema: { type: 'string' } } } }, ...runPartProblems },
  },
  async handle({ params, app, caller }) {
    const location = await app.reads.transcriptLink(params.runId!, caller);
    return empty(302, { location, 'content-length': 0, 'cache-control': 'no-store' });
  },
};
