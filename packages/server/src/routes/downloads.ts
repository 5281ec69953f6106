import { join } from 'node:path';
import { attachmentsDir } from '../executors/agent-protocol.js';
import { mimeTypeOf } from '../executors/mime-type.js';
import { ApiProblem } from '../http/api-problem.js';
import { sendDownload, sendFileDownload } from '../http/send-download.js';
import type { Route, RouteRequest } from '../http/route.js';
import { conversationEntries } from '../runs/conversation-entries.js';
import { downloadName } from '../runs/to-artifact.js';
import { handoffFiles } from './handoff-attachments.js';

/**
 * A download route: no API key, since the signed link is the permission, so it is checked
 * here, before the handler reads anything.
 */
function signedDownloadRoute(path: string, handle: (request: RouteRequest) => Promise<void> | void): Route {
  return {
    method: 'GET',
    path,
    auth: false,
    async handle(request) {
      request.app.links.verify(request.url.pathname, request.url.searchParams);
      await handle(request);
    },
  };
}

/** `GET /downloads/artifacts/{uid}`: the bytes of a FILE or SCREENSHOT artifact. */
export const downloadArtifactRoute: Route = signedDownloadRoute('/downloads/artifacts/:uid', async ({ res, params, app }) => {
  const artifact = await app.artifacts.get(params.uid!);
  const content = artifact && (await app.artifacts.content(artifact.uid));
  if (!artifact || !content) throw new ApiProblem('resource_not_found', `No downloadable artifact "${params.uid}".`);
  sendDownload(res, content, String(artifact.data.mime_type ?? 'application/octet-stream'), downloadName(artifact));
});

/** `GET /downloads/transcripts/{runId}`: the raw transcript, JSON lines of the conversation and the agent's output. */
export const downloadTranscriptRoute: Route = signedDownloadRoute('/downloads/transcripts/:runId', async ({ res, params, app }) => {
  // No key, so no principal to check.
  const run = await app.store.get(params.runId!);
  if (!run) throw new ApiProblem('resource_not_found', `No run "${params.runId}".`);
  const lines = conversationEntries(run, await app.conversations.list(run.id)).map((entry) => JSON.stringify(entry));
  lines.push(JSON.stringify({ kind: 'output', text: await app.events.outputText(run.id) }));
  sendDownload(res, Buffer.from(`${lines.join('\n')}\n`), 'application/x-ndjson', `transcript-${run.id}.jsonl`);
});

/** `GET /downloads/handoff/{runId}/{name}`: one file of the run's attachments directory. */
export const downloadHandoffRoute: Route = signedDownloadRoute('/downloads/handoff/:runId/:name', async ({ res, params, app }) => {
  const name = params.name!;
  // Only a name the listing would give: no path tricks past the signature.
  if (!handoffFiles(app.workRoot, params.runId!).includes(name)) {
    throw new ApiProblem('resource_not_found', `No handoff file "${name}" for run "${params.runId}".`);
  }
  sendFileDownload(res, join(attachmentsDir(app.workRoot, params.runId!), name), mimeTypeOf(name), name);
});
