import type {
  ArtifactResponse,
  ConversationResponse,
  HandoffAttachmentsResponse,
  ListRunsResponse,
  RunCreatorInfo,
  RunItem,
  RunOutputChunk,
  RunOutputPage,
} from '@agent-runs/core/contract';
import { join } from 'node:path';
import { NotFoundError } from '../domain/domain-errors.js';
import { attachmentsDir } from '../executors/agent-protocol.js';
import { harnessTranscriptLines } from '../executors/harness/harness-executor.js';
import { harnessTurnMessages } from '../executors/harness/harness-turns.js';
import { mimeTypeOf } from '../executors/mime-type.js';
import { artifactsOf, type ArtifactStore } from '../store/artifacts/artifact-store.js';
import type { ConversationStore } from '../store/conversations/conversation-store.js';
import { encodeCursor } from '../store/runs/list-cursor.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { RunListQuery, RunStore } from '../store/runs/run-store.js';
import { conversationEntries } from './conversation-entries.js';
import { conversationIdOf } from './conversation-id.js';
import { checkDiskSpace } from './disk-space.js';
import { handoffFiles } from './handoff-files.js';
import type { RunEventLog } from './run-event-log.js';
import type { RunService } from './run-service.js';
import { hasArtifactResponse, downloadName, toArtifactItem, toArtifactResponse } from './to-artifact.js';
import { toConversationResponse } from './to-conversation-response.js';
import { toRunItem } from './to-run-item.js';

/** The run as pages render it; the store's record, named here so routes need not reach the store. */
export type { RunRecord } from '../store/runs/run-record.js';

/** A page holds at most about this much output text. */
const OUTPUT_PAGE_BYTES = 1024 * 1024;
const OUTPUT_PAGE_EVENTS = 1000;

/** A link that opens a path of this server without an API key, and when it stops working. */
export type LinkSigner = (path: string) => { url: string; expiresAt: string };

/** What a download answers with. */
export interface DownloadBody {
  body: Buffer;
  contentType: string;
  filename: string;
}

/** What the session page shows of a run. */
export interface SessionPageView {
  run: RunRecord;
  /** The end of the output, and whether earlier output is not part of it. */
  output: { text: string; omitted: boolean };
  /** The event the page's stream resumes after. */
  lastEventId: number;
  artifacts: ReturnType<typeof toArtifactItem>[];
}

/**
 * Reading runs and what they made, each read answering only what the caller may see
 * (RunService's sharing rule): a run, a page of runs, its conversation, output,
 * artifacts, transcript and handoff files, and the session page's view.
 */
export class RunReads {
  constructor(
    private readonly store: RunStore,
    private readonly runs: RunService,
    private readonly artifacts: ArtifactStore,
    private readonly conversations: ConversationStore,
    private readonly events: RunEventLog,
    /** `session_link` for a run: its page, with the token that opens it. */
    private readonly sessionLink: (run: RunRecord) => string,
    private readonly signLink: LinkSigner,
    /** Parent of the runs' working directories (handoff files live beside them). */
    private readonly workRoot: string,
    /** The data directory, where the store keeps its files (none for a database elsewhere or in memory). */
    private readonly dataDir?: string,
  ) {}

  /** The store answers. */
  async ping(): Promise<void> {
    await this.store.get('healthz');
  }

  /** The health check: the store answers, and the disks it and the runs write to have room. */
  async health(): Promise<void> {
    await this.ping();
    await checkDiskSpace(this.dataDir === undefined ? [this.workRoot] : [this.dataDir, this.workRoot]);
  }

  async item(runId: string, caller: RunCreatorInfo): Promise<RunItem> {
    const run = await this.runs.getOrThrow(runId, caller);
    return toRunItem(run, this.sessionLink(run), await artifactsOf(this.artifacts, run));
  }

  /** A keyset page of runs; without shared runs a key lists its own principal's only. */
  async list(query: RunListQuery, caller: RunCreatorInfo): Promise<ListRunsResponse> {
    if (!this.runs.sharedRuns) {
      // A creator filter naming another principal matches none.
      if (query.creator !== undefined && query.creator !== caller.uid) return { runs: [], page_info: { has_next_page: false } };
      query = { ...query, creator: caller.uid ?? '' };
    }
    const page = await this.store.list(query);
    const artifacts = await this.artifacts.listByRuns(page.runs.map((run) => run.id));
    return {
      runs: page.runs.map((run) => toRunItem(run, this.sessionLink(run), artifacts.get(run.id))),
      page_info: { has_next_page: page.next !== undefined, ...(page.next ? { next_cursor: encodeCursor(page.next) } : {}) },
    };
  }

  async conversation(runId: string, caller: RunCreatorInfo): Promise<ConversationResponse> {
    const run = await this.runs.getOrThrow(runId, caller);
    return toConversationResponse(run, conversationEntries(run, await this.conversations.list(run.id)), (n) => harnessTurnMessages(this.workRoot, run.id, n));
  }

  /** A conversation's normalised messages across its runs the caller may read, one step per execution, oldest first. */
  async conversationById(conversationId: string, caller: RunCreatorInfo): Promise<ConversationResponse> {
    const runs = await this.runs.conversationRuns(conversationId, caller);
    // Another principal's conversation is as unknown as a missing one.
    if (!runs) throw new NotFoundError(`No conversation "${conversationId}".`);
    const steps = [];
    for (const run of runs) steps.push(...toConversationResponse(run, conversationEntries(run, await this.conversations.list(run.id)), (n) => harnessTurnMessages(this.workRoot, run.id, n)).steps);
    return { conversation_id: conversationId, steps };
  }

  /**
   * The session of the newest run its owner (the creator of its first run) added to a
   * conversation. Served without a key, as SDK 1.4 calls it: it answers only the mapped id.
   */
  async conversationSession(conversationId: string): Promise<{ session_id: string }> {
    const runs = await this.store.conversationRuns(conversationId);
    const owner = runs[0]?.creator.uid;
    const newest = runs.filter((run) => run.creator.uid === owner).at(-1);
    if (!newest) throw new NotFoundError(`No conversation "${conversationId}".`);
    return { session_id: newest.sessionId };
  }

  /** The conversation a session belongs to. Served without a key, as SDK 1.4 calls it: it answers only the mapped id. */
  async sessionConversation(sessionId: string): Promise<{ conversation_id: string }> {
    const run = await this.store.getBySession(sessionId);
    if (!run) throw new NotFoundError(`No session "${sessionId}".`);
    return { conversation_id: conversationIdOf(run) };
  }

  /** The stored output after event `since`, paged. */
  async output(runId: string, since: number, caller: RunCreatorInfo): Promise<RunOutputPage> {
    const run = await this.runs.getOrThrow(runId, caller);
    await this.events.flush();
    const store = this.events.eventStore;
    const head = await store.head(run.id);
    const chunks: RunOutputChunk[] = [];
    let bytes = 0;
    let next = since;
    let hasMore = false;
    outer: for (;;) {
      const batch = await store.after(run.id, next, OUTPUT_PAGE_EVENTS, true);
      if (batch.length === 0) break;
      for (const event of batch) {
        if (bytes >= OUTPUT_PAGE_BYTES || chunks.length >= OUTPUT_PAGE_EVENTS) {
          hasMore = true;
          break outer;
        }
        const data = JSON.parse(event.data) as { stream: string; text: string; at: string };
        chunks.push({ id: event.id, ...data });
        bytes += Buffer.byteLength(data.text);
        next = event.id;
      }
    }
    return {
      run_id: run.id,
      chunks,
      next_since: next,
      has_more: hasMore,
      ...(head.droppedThrough > since ? { dropped: { through_id: head.droppedThrough, bytes: head.droppedBytes } } : {}),
    };
  }

  /** A plan with its content, a file or screenshot with a signed, expiring download link. */
  async artifact(uid: string, caller: RunCreatorInfo): Promise<ArtifactResponse> {
    const artifact = await this.artifacts.get(uid);
    // Readable by whoever may read its run, and by no one else (as if it did not exist).
    const run = artifact && (await this.store.get(artifact.runId));
    if (!artifact || !hasArtifactResponse(artifact) || !run || !this.runs.mayRead(caller.uid, run)) {
      throw new NotFoundError(`No plan, file or screenshot artifact with uid "${uid}".`);
    }
    const link = artifact.type === 'PLAN' ? undefined : this.signLink(`/downloads/artifacts/${encodeURIComponent(artifact.uid)}`);
    return toArtifactResponse(artifact, link);
  }

  /** The bytes of a FILE or SCREENSHOT artifact (its signed link is the permission). */
  async artifactDownload(uid: string): Promise<DownloadBody> {
    const artifact = await this.artifacts.get(uid);
    const content = artifact && (await this.artifacts.content(artifact.uid));
    if (!artifact || !content) throw new NotFoundError(`No downloadable artifact "${uid}".`);
    return { body: content, contentType: String(artifact.data.mime_type ?? 'application/octet-stream'), filename: downloadName(artifact) };
  }

  /** A short-lived link to the raw transcript. */
  async transcriptLink(runId: string, caller: RunCreatorInfo): Promise<string> {
    const run = await this.runs.getOrThrow(runId, caller);
    return this.signLink(`/downloads/transcripts/${encodeURIComponent(run.id)}`).url;
  }

  /** The raw transcript: JSON lines of the conversation and the agent's output (its signed link is the permission). */
  async transcript(runId: string): Promise<DownloadBody> {
    const run = await this.store.get(runId);
    if (!run) throw new NotFoundError(`No run "${runId}".`);
    const lines = conversationEntries(run, await this.conversations.list(run.id)).map((entry) => JSON.stringify(entry));
    lines.push(JSON.stringify({ kind: 'output', text: await this.events.outputText(run.id) }));
    // A harness's own JSON stream, line by line (keys masked when it was written).
    lines.push(...harnessTranscriptLines(this.workRoot, run.id));
    return { body: Buffer.from(`${lines.join('\n')}\n`), contentType: 'application/x-ndjson', filename: `transcript-${run.id}.jsonl` };
  }

  /** Signed links to the files of the run's attachments directory. */
  async handoffAttachments(runId: string, caller: RunCreatorInfo): Promise<HandoffAttachmentsResponse> {
    const run = await this.runs.getOrThrow(runId, caller);
    return {
      attachments: handoffFiles(this.workRoot, run.id).map((name) => {
        const link = this.signLink(`/downloads/handoff/${encodeURIComponent(run.id)}/${encodeURIComponent(name)}`);
        return { attachment_id: `${run.id}/${name}`, download_url: link.url, filename: name, mime_type: mimeTypeOf(name) };
      }),
    };
  }

  /** Where one handoff file is on disk (its signed link is the permission); only a name the listing would give. */
  handoffFile(runId: string, name: string): { root: string; path: string; contentType: string } {
    if (!handoffFiles(this.workRoot, runId).includes(name)) throw new NotFoundError(`No handoff file "${name}" for run "${runId}".`);
    return { root: this.workRoot, path: join(attachmentsDir(this.workRoot, runId), name), contentType: mimeTypeOf(name) };
  }

  /** The run of a session, before any access check (the caller checks the session's token or key). */
  async bySession(sessionId: string): Promise<RunRecord> {
    const run = await this.store.getBySession(sessionId);
    if (!run) throw new NotFoundError(`No session "${sessionId}".`);
    return run;
  }

  /** What the session page shows: the run, about `outputBytes` of the end of its output, its artifacts. */
  async sessionPage(run: RunRecord, outputBytes: number): Promise<SessionPageView> {
    await this.events.reconcile(run);
    // The log's head first, then the run: a change in between is replayed by the stream.
    const store = this.events.eventStore;
    const head = await store.head(run.id);
    const current = await this.bySession(run.sessionId);
    const tail = await store.outputTail(current.id, head.lastId, outputBytes);
    const text = tail.map((event) => (JSON.parse(event.data) as { text: string }).text).join('');
    const omitted = head.droppedThrough > 0 || (tail.length > 0 && (await store.after(current.id, 0, 1, true))[0]!.id < tail[0]!.id);
    const artifacts = (await artifactsOf(this.artifacts, current)).map(toArtifactItem);
    return { run: current, output: { text, omitted }, lastEventId: head.lastId, artifacts };
  }
}
