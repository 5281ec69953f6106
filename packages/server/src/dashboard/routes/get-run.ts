import type { RunCreatorInfo, RunItem } from '@agent-runs/core/contract';
import { buildRunTree } from '@agent-runs/core/tree';
import type { AppContext } from '../../routes/app-context.js';
import { baseUrlOf } from '../dashboard-request.js';
import { page } from '../page-reply.js';
import { runPage, type ArtifactBody } from '../run-page.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** Output kept on a run's page; the rest is read through the API. */
const OUTPUT_TAIL_CHARS = 256 * 1024;
const MAX_ARTIFACT_BODIES = 50;
/** Runs of a tree shown on a run's page; the CLI's `tree` shows more. */
const MAX_TREE_RUNS_SHOWN = 200;

/** `GET /runs/:runId`: a run, its conversation, the end of its output and its artifacts; `done` names what a form just did. */
export const getRunRoute: SignedInRoute = {
  method: 'GET',
  path: '/runs/:runId',
  async handle({ req, url, params, app, session, caller }) {
    const run = await app.reads.item(params.runId!, caller);
    const [conversation, output, downloads, tree] = await Promise.all([
      app.reads.conversation(run.run_id, caller).catch(() => undefined),
      readOutput(app, run.run_id, caller),
      artifactBodies(app, run.artifacts ?? [], caller),
      readTree(app, run, caller),
    ]);
    const notice = url.searchParams.get('done') ?? undefined;
    return page(runPage({ session, run, conversation, output, downloads, baseUrl: baseUrlOf(req), search: url.searchParams.get('q') ?? '', notice, tree }));
  },
};

/** The run and those it started, and theirs: one page of them, oldest first. */
async function readTree(app: AppContext, run: RunItem, caller: RunCreatorInfo) {
  const listed = await app.reads.list({ limit: MAX_TREE_RUNS_SHOWN, sortBy: 'created_at', sortOrder: 'asc', ancestorRunId: run.run_id }, caller);
  const root = buildRunTree(listed.runs.some((r) => r.run_id === run.run_id) ? listed.runs : [run, ...listed.runs], run.run_id);
  return root && root.children.length > 0 ? { root, truncated: listed.page_info.has_next_page } : undefined;
}

/** The end of a run's stored output, and the event its stream resumes after. */
async function readOutput(app: AppContext, runId: string, caller: RunCreatorInfo) {
  let text = '';
  let omitted = false;
  let since = 0;
  for (let pages = 0; pages < 64; pages++) {
    const chunkPage = await app.reads.output(runId, since, caller);
    if (chunkPage.dropped) omitted = true;
    for (const chunk of chunkPage.chunks) text += chunk.text;
    if (text.length > OUTPUT_TAIL_CHARS) {
      text = text.slice(text.length - OUTPUT_TAIL_CHARS);
      omitted = true;
    }
    since = chunkPage.next_since;
    if (!chunkPage.has_more) break;
  }
  return { text, omitted, lastEventId: since };
}

/** Download paths of files and screenshots, and plans' text, as the caller may read them. */
async function artifactBodies(app: AppContext, items: readonly { artifact_type: string; data?: unknown }[], caller: RunCreatorInfo) {
  const bodies = new Map<string, ArtifactBody>();
  for (const item of items.slice(0, MAX_ARTIFACT_BODIES)) {
    const data = (item.data ?? {}) as Record<string, unknown>;
    const uid = typeof data.artifact_uid === 'string' ? data.artifact_uid : item.artifact_type === 'PLAN' && typeof data.document_uid === 'string' ? data.document_uid : undefined;
    if (!uid) continue;
    try {
      const response = (await app.reads.artifact(uid, caller)) as { data: Record<string, unknown> };
      const url = typeof response.data.download_url === 'string' && response.data.download_url ? new URL(response.data.download_url) : undefined;
      bodies.set(uid, {
        ...(url ? { path: url.pathname + url.search } : {}),
        ...(typeof response.data.content === 'string' ? { content: response.data.content } : {}),
      });
    } catch {
      // An artifact without a body to show (a pull request, a link) is listed as it is.
    }
  }
  return bodies;
}
