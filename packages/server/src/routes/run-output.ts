import type { RunOutputChunk, RunOutputPage } from '@agent-runs/core';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';
import { parseEventId } from './event-id-param.js';

/** A page holds at most about this much output text. */
const PAGE_BYTES = 1024 * 1024;
const PAGE_EVENTS = 1000;

/** `GET /agent/runs/{runId}/output?since=<id>` (an extension): the stored output after an event id, paged. */
export const runOutputRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/output',
  auth: true,
  async handle({ res, url, params, app, caller }) {
    const since = parseEventId(url.searchParams.get('since'), 'since');
    const run = await app.runs.getOrThrow(params.runId!, caller);
    await app.events.flush();
    const store = app.events.eventStore;
    const head = await store.head(run.id);
    const chunks: RunOutputChunk[] = [];
    let bytes = 0;
    let next = since;
    let hasMore = false;
    outer: for (;;) {
      const batch = await store.after(run.id, next, PAGE_EVENTS, true);
      if (batch.length === 0) break;
      for (const event of batch) {
        if (bytes >= PAGE_BYTES || chunks.length >= PAGE_EVENTS) {
          hasMore = true;
          break outer;
        }
        const data = JSON.parse(event.data) as { stream: string; text: string; at: string };
        chunks.push({ id: event.id, ...data });
        bytes += Buffer.byteLength(data.text);
        next = event.id;
      }
    }
    const page: RunOutputPage = {
      run_id: run.id,
      chunks,
      next_since: next,
      has_more: hasMore,
      ...(head.droppedThrough > since ? { dropped: { through_id: head.droppedThrough, bytes: head.droppedBytes } } : {}),
    };
    sendJson(res, 200, page);
  },
};
