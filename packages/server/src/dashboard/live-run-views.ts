import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunCreatorInfo } from '@agent-runs/core/contract';
import { openSseResponse } from '../http/sse-response.js';
import type { SseHeartbeat } from '../http/sse-heartbeat.js';
import type { StreamTicket } from '../http/sse-limits.js';
import type { RunReads } from '../runs/run-reads.js';
import type { RunEventSink } from '../domain/run-event-sink.js';
import type { RunChangeListener } from '../runs/run-event-streams.js';
import type { RunListQuery } from '../store/runs/run-store.js';
import { runRow } from './run-row.js';

interface Row {
  version: string;
  data: string;
}

/** The dashboards open on one page of runs (same principal, same filters): read once per tick for all of them. */
interface View {
  key: string;
  query: RunListQuery;
  caller: RunCreatorInfo;
  sinks: Set<RunEventSink>;
  rows: Map<string, Row>;
  timer: NodeJS.Timeout | undefined;
  reading: boolean;
  /** The count of changes that concern it, when its last read started (-1: never read). */
  readAt: number;
  /** Ticks since its last read. */
  idleTicks: number;
}

/** Where runs' changes are told (the server's event streams). */
export interface RunChanges {
  onRunChange(listener: RunChangeListener): () => void;
}

/** A view is read again at least this many ticks apart even when no change was told (a change may go untold). */
const MAX_IDLE_TICKS = 10;

/**
 * Live rows of the runs table. Each open dashboard has one stream; dashboards showing the
 * same page share one read of it per tick, and a row's markup is made once per change,
 * so the cost follows the pages watched, not the browsers watching them.
 */
export class LiveRunViews {
  private readonly views = new Map<string, View>();
  /**
   * Runs' changes told so far, of any principal's run (or of a run not known), and by the
   * principal whose run changed: a view is read again on a tick only once the changes that
   * concern it moved past its last read.
   */
  private changes = 0;
  private readonly changesOf = new Map<string, number>();
  private readonly told: boolean;

  constructor(
    private readonly reads: RunReads,
    private readonly heartbeat: SseHeartbeat,
    private readonly intervalMs = 1000,
    private readonly log: (line: string) => void = () => {},
    told?: RunChanges,
    /** Every principal sees every run (the server's shared runs): any change concerns every view. */
    private readonly sharedRuns = false,
  ) {
    // Without a source of changes, every tick reads.
    this.told = told !== undefined;
    told?.onRunChange((_runId, run) => {
      // No view open: a view opened later reads at once, whatever was told before.
      if (this.views.size === 0) return;
      const owner = this.sharedRuns || run === undefined ? undefined : ownerOf(run);
      if (owner === undefined) this.changes++;
      else this.changesOf.set(owner, (this.changesOf.get(owner) ?? 0) + 1);
    });
  }

  /** The changes that concern a view of `caller`: any principal's, and its own runs'. */
  private concerning(caller: RunCreatorInfo): number {
    return this.changes + (this.changesOf.get(caller.uid ?? '') ?? 0);
  }

  /** Streams `row` events for the page `query` shows: every row first, then each changed or new one. */
  open(req: IncomingMessage, res: ServerResponse, caller: RunCreatorInfo, query: RunListQuery, key: string, ticket: StreamTicket): void {
    const viewKey = `${caller.uid ?? ''}\n${key}`;
    let view = this.views.get(viewKey);
    if (!view) {
      view = { key: viewKey, query, caller, sinks: new Set(), rows: new Map(), timer: undefined, reading: false, readAt: -1, idleTicks: 0 };
      this.views.set(viewKey, view);
    }
    const current = view;
    const sink: RunEventSink = openSseResponse(req, res, this.heartbeat, () => this.leave(current, sink), ticket);
    current.sinks.add(sink);
    for (const row of current.rows.values()) sink.send({ name: 'row', data: row.data });
    if (!current.timer) {
      current.timer = setInterval(() => void this.tick(current), this.intervalMs);
      current.timer.unref();
      void this.tick(current);
    }
  }

  /** How many views are read each tick (for tests and the bench). */
  get viewCount(): number {
    return this.views.size;
  }

  private leave(view: View, sink: RunEventSink): void {
    view.sinks.delete(sink);
    if (view.sinks.size > 0) return;
    clearInterval(view.timer);
    this.views.delete(view.key);
  }

  private async tick(view: View): Promise<void> {
    if (view.reading) return;
    // Nothing changed since the last read: skip it, but not for long.
    const seen = this.concerning(view.caller);
    if (this.told && view.readAt === seen && ++view.idleTicks < MAX_IDLE_TICKS) return;
    view.readAt = seen;
    view.idleTicks = 0;
    view.reading = true;
    try {
      const page = await this.reads.list({ ...view.query }, view.caller);
      // Oldest first: each new row goes on top, so the newest ends up first.
      for (const run of [...page.runs].reverse()) {
        const version = `${run.updated_at} ${run.state} ${run.artifacts?.length ?? 0}`;
        if (view.rows.get(run.run_id)?.version === version) continue;
        const row = { version, data: JSON.stringify({ id: run.run_id, html: runRow(run).text }) };
        view.rows.set(run.run_id, row);
        for (const sink of [...view.sinks]) {
          // A browser that fell behind is dropped; it reconnects and is sent every row again.
          if (!sink.send({ name: 'row', data: row.data })) sink.end();
        }
      }
      // Bounded: only the rows of the page are kept.
      if (view.rows.size > page.runs.length * 4) {
        const keep = new Set(page.runs.map((r) => r.run_id));
        for (const id of view.rows.keys()) if (!keep.has(id)) view.rows.delete(id);
      }
    } catch (error) {
      this.log(`The dashboard could not read a page of runs: ${(error as Error).message}`);
    } finally {
      view.reading = false;
    }
  }
}

/** Whose run a `run` event's JSON is; undefined when it does not say. */
function ownerOf(run: string): string | undefined {
  try {
    const uid = (JSON.parse(run) as { creator?: { uid?: unknown } }).creator?.uid;
    return typeof uid === 'string' ? uid : undefined;
  } catch {
    return undefined;
  }
}
