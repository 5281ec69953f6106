import { openAgentFile } from '../executors/agent-tree.js';
import { download, fileDownload } from '../http/reply.js';
import type { AppRoute, AppRouteRequest, RouteResult } from './app-context.js';

/**
 * A download route: no API key, since the signed link is the permission, so it is checked
 * here, before the handler reads anything.
 */
function signedDownloadRoute(path: string, handle: (request: AppRouteRequest) => Promise<RouteResult> | RouteResult): AppRoute {
  return {
    method: 'GET',
    path,
    auth: false,
    async handle(request) {
      request.app.links.verify(request.url.pathname, request.url.searchParams);
      return handle(request);
    },
  };
}

/** `GET /downloads/artifacts/{uid}`: the bytes of a FILE or SCREENSHOT artifact. */
export const downloadArtifactRoute: AppRoute = signedDownloadRoute('/downloads/artifacts/:uid', async ({ params, app }) => {
  const { body, contentType, filename } = await app.reads.artifactDownload(params.uid!);
  return download(body, contentType, filename);
});

/** `GET /downloads/transcripts/{runId}`: the raw transcript, JSON lines of the conversation and the agent's output. */
export const downloadTranscriptRoute: AppRoute = signedDownloadRoute('/downloads/transcripts/:runId', async ({ params, app }) => {
  // No key, so no principal to check.
  const { body, contentType, filename } = await app.reads.transcript(params.runId!);
  return download(body, contentType, filename);
});

/** `GET /downloads/handoff/{runId}/{name}`: one file of the run's attachments directory. */
export const downloadHandoffRoute: AppRoute = signedDownloadRoute('/downloads/handoff/:runId/:name', ({ params, app }) => {
  const name = params.name!;
  const file = app.reads.handoffFile(params.runId!, name);
  // The agent may have swapped the file, or a directory above it, since it was listed: no link
  // is followed below the work root, a FIFO not waited on.
  return fileDownload(() => openAgentFile(file.root, file.path), file.contentType, name);
});
