import { download, fileDownload } from '../http/reply.js';
import type { Route, RouteRequest, RouteResult } from '../http/route.js';

/**
 * A download route: no API key, since the signed link is the permission, so it is checked
 * here, before the handler reads anything.
 */
function signedDownloadRoute(path: string, handle: (request: RouteRequest) => Promise<RouteResult> | RouteResult): Route {
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
export const downloadArtifactRoute: Route = signedDownloadRoute('/downloads/artifacts/:uid', async ({ params, app }) => {
  const { body, contentType, filename } = await app.reads.artifactDownload(params.uid!);
  return download(body, contentType, filename);
});

/** `GET /downloads/transcripts/{runId}`: the raw transcript, JSON lines of the conversation and the agent's output. */
export const downloadTranscriptRoute: Route = signedDownloadRoute('/downloads/transcripts/:runId', async ({ params, app }) => {
  // No key, so no principal to check.
  const { body, contentType, filename } = await app.reads.transcript(params.runId!);
  return download(body, contentType, filename);
});

/** `GET /downloads/handoff/{runId}/{name}`: one file of the run's attachments directory. */
export const downloadHandoffRoute: Route = signedDownloadRoute('/downloads/handoff/:runId/:name', ({ params, app }) => {
  const name = params.name!;
  const file = app.reads.handoffFile(params.runId!, name);
  return fileDownload(file.root, file.path, file.contentType, name);
});
