import { Writable } from 'node:stream';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { ProtocolError, type ReadResourceResult } from '@modelcontextprotocol/server';
import { isDownloadableArtifact, NotFoundError, runArtifacts, summarizeArtifact, type AgentRunsClient } from '@agent-runs/core';
import type { ServerContext } from '../context.js';

export const ARTIFACT_URI_TEMPLATE = 'agent-run://{run_id}/artifacts/{artifact_uid}';
/** Text files up to this size are read inline; larger ones are offered as a link. */
export const MAX_INLINE_TEXT_BYTES = 64 * 1024;
/** Images up to this size are returned as a blob; larger ones as a link. */
export const MAX_INLINE_BLOB_BYTES = 1024 * 1024;
const RESOURCE_NOT_FOUND = -32002;

export function artifactUri(runId: string, artifactUid: string): string {
  return `agent-run://${encodeURIComponent(runId)}/artifacts/${encodeURIComponent(artifactUid)}`;
}

const isText = (mime: string) => mime.startsWith('text/') || /json|xml|yaml|ndjson/.test(mime);

/** Downloads at most `max` bytes; undefined when the file is larger. */
async function readSmall(client: AgentRunsClient, uid: string, max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > max) {
        over = true;
        callback(new Error('over the inline limit'));
        return;
      }
      chunks.push(chunk);
      callback();
    },
  });
  try {
    await client.artifacts.download(uid, { to: sink });
  } catch (error) {
    if (over) return undefined;
    throw error;
  }
  return Buffer.concat(chunks);
}

/** One artifact as MCP resource contents: a plan's markdown, a small text file, a small image, or a link. */
async function readArtifact(client: AgentRunsClient, uri: string, uid: string): Promise<ReadResourceResult> {
  const artifact = await client.artifacts.get(uid);
  if (!isDownloadableArtifact(artifact)) {
    const data = artifact.data as { content?: unknown; title?: unknown };
    const text = typeof data.content === 'string' ? data.content : JSON.stringify(artifact, null, 2);
    return { contents: [{ uri, mimeType: typeof data.content === 'string' ? 'text/markdown' : 'application/json', text }] };
  }
  const mime = artifact.data.content_type;
  const size = 'size_bytes' in artifact.data && typeof artifact.data.size_bytes === 'number' ? artifact.data.size_bytes : undefined;
  const inlineLimit = isText(mime) ? MAX_INLINE_TEXT_BYTES : mime.startsWith('image/') ? MAX_INLINE_BLOB_BYTES : 0;
  const bytes = inlineLimit > 0 && (size === undefined || size <= inlineLimit) ? await readSmall(client, uid, inlineLimit) : undefined;
  if (bytes && isText(mime)) return { contents: [{ uri, mimeType: mime, text: bytes.toString('utf8') }] };
  if (bytes) return { contents: [{ uri, mimeType: mime, blob: bytes.toString('base64') }] };
  const link = {
    artifact_uid: artifact.artifact_uid,
    artifact_type: artifact.artifact_type,
    content_type: mime,
    size_bytes: size,
    download_url: artifact.data.download_url,
    expires_at: artifact.data.expires_at,
    note: `Not inlined (only text up to ${MAX_INLINE_TEXT_BYTES} bytes and images up to ${MAX_INLINE_BLOB_BYTES} bytes are): download it from download_url before expires_at.`,
  };
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(link, null, 2) }] };
}

/** `agent-run://{run_id}/artifacts/{artifact_uid}`: what a run produced, readable by the assistant. */
export function registerArtifactResource(server: McpServer, ctx: ServerContext): void {
  server.registerResource(
    'run-artifact',
    new ResourceTemplate(ARTIFACT_URI_TEMPLATE, { list: undefined }),
    {
      title: 'Cloud agent run artifact',
      description:
        `A plan (markdown), file or screenshot a run produced. Text files up to ${MAX_INLINE_TEXT_BYTES / 1024} KiB and ` +
        `images up to ${MAX_INLINE_BLOB_BYTES / 1024 / 1024} MiB come inline; larger ones as a short-lived download link.`,
    },
    async (uri, variables) => {
      const value = (name: string) => {
        const raw = variables[name];
        return decodeURIComponent(Array.isArray(raw) ? (raw[0] ?? '') : (raw ?? ''));
      };
      const runId = value('run_id');
      const uid = value('artifact_uid');
      try {
        // The artifact must be the run's: a uid is not readable through another run's URI.
        const run = await ctx.client.runs.get(runId);
        if (!runArtifacts(run).some((a) => summarizeArtifact(a).uid === uid)) {
          throw new ProtocolError(RESOURCE_NOT_FOUND, `Run ${runId} has no artifact ${uid}: call get_run for its artifacts.`);
        }
        return await readArtifact(ctx.client, uri.href, uid);
      } catch (error) {
        if (error instanceof NotFoundError) throw new ProtocolError(RESOURCE_NOT_FOUND, `No run ${runId} or artifact ${uid}: call get_run for its artifacts.`);
        throw error;
      }
    },
  );
}
