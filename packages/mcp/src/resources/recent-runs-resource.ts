import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { boundRuns, inRunResource, LIST_FIELD_CHARS } from '../results/bounded-run.js';

export const RECENT_RUNS_URI = 'agent-run://recent';
const RECENT_RUNS_LIMIT = 20;

/** The most recently updated runs as one JSON document (a ListRunsResponse). */
export function registerRecentRunsResource(server: McpServer, ctx: ServerContext): void {
  server.registerResource(
    'recent-runs',
    RECENT_RUNS_URI,
    {
      title: 'Recent cloud agent runs',
      description: `The ${RECENT_RUNS_LIMIT} most recently updated runs as JSON ({ runs, page_info }).`,
      mimeType: 'application/json',
    },
    async (uri) => {
      const page = await ctx.client.runs.list({ limit: RECENT_RUNS_LIMIT });
      // Each run's long fields are cut, pointing at the run's own resource: the list stays one small message.
      const body = { ...page.body, runs: boundRuns(page.body.runs, LIST_FIELD_CHARS, inRunResource) };
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
    },
  );
}
