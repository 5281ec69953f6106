import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { registerRecentRunsResource } from './recent-runs-resource.js';
import { registerRunResource } from './run-resource.js';
import { registerArtifactResource } from './artifact-resource.js';

export { RECENT_RUNS_URI } from './recent-runs-resource.js';
export { RUN_URI_TEMPLATE, runUri } from './run-resource.js';
export { ARTIFACT_URI_TEMPLATE, artifactUri } from './artifact-resource.js';

export function registerResources(server: McpServer, ctx: ServerContext): void {
  // The fixed URI first: the SDK matches exact URIs before templates anyway.
  registerRecentRunsResource(server, ctx);
  // The longer template first, so an artifact URI is never read as a run id.
  registerArtifactResource(server, ctx);
  registerRunResource(server, ctx);
}
