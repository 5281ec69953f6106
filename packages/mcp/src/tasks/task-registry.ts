import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the 2025-11-25 wire shows it. */
export interface TaskView {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}

/** A JSON-RPC error that ended a task's work (2026-07-28 shows it as `error` of a failed task). */
export interface TaskError {
  code: number;
  message: string;
}

/** A task with what it ended with, for `tasks/get` of 2026-07-28. */
export interface TaskSnapshot {
  view: TaskView;
  result?: CallToolResult;
  error?: TaskError;
}

interface TaskRecord {
  view: TaskView;
  controller: AbortController;
  result?: CallToolResult;
  error?: TaskError;
  /** What the host's own tasks/cancel also stops (create_run's task: the run it started). */
  onHostCancel?: { stop: () => void; statusMessage: string };
  done: Promise<void>;
  settle: () => void;
  expiry?: NodeJS.Timeout;
  /** Told of each change of the task's status or message (2026-07-28 listen streams). */
  watchers: Set<(snapshot: TaskSnapshot) => void>;
}

/** How often a task-aware host is told to poll `tasks/get`. */
export const TASK_POLL_INTERVAL_MS = 250;
/** How long a finished task's result stays fetchable when the host names no ttl. */
export const RESULT_TTL_MS = 10 * 60_000;
/** Node timers overflow past 24.8 days; no task needs to live longer than a week. */
const MAX_TTL_MS = 7 * 24 * 3_600_000;
/** Tasks held at once (live and finished); the oldest finished ones go first past it. */
export const MAX_TASKS = 1_000;

export class TaskLimitError extends Error {}

const isTerminal = (status: TaskStatus) => status === 'completed' || status === 'failed' || status === 'cancelled';

/**
 * The long waits behind `wait_for_run` (and waiting tool calls), one registry per process:
 * a plain call and a task-augmented one both run here, so `tasks/cancel`, the host's
 * cancellation and the server's close all stop the same work.
 */
export class TaskRegistry {
  private readonly tasks = new Map<string, TaskRecord>();

  /** A new working task; its signal aborts on cancel or close. */
  create(ttlMs: number | undefined, minTtlMs: number): { view: TaskView; signal: AbortSignal } {
    this.makeRoom();
    const now = new Date().toISOString();
    const ttl = Math.min(MAX_TTL_MS, Math.max(ttlMs ?? RESULT_TTL_MS, minTtlMs));
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const record: TaskRecord = {
      view: { taskId: randomUUID(), status: 'working', createdAt: now, lastUpdatedAt: now, ttl, pollInterval: TASK_POLL_INTERVAL_MS },
      controller: new AbortController(),
      done,
      settle,
      watchers: new Set(),
    };
    record.expiry = setTimeout(() => this.drop(record.view.taskId), ttl);
    record.expiry.unref();
    this.tasks.set(record.view.taskId, record);
    return { view: { ...record.view }, signal: record.controller.signal };
  }

  get(taskId: string): TaskView | undefined {
    const record = this.tasks.get(taskId);
    return record ? { ...record.view } : undefined;
  }

  /** The task and its outcome, if it has one. */
  snapshot(taskId: string): TaskSnapshot | undefined {
    const record = this.tasks.get(taskId);
    if (!record) return undefined;
    return { view: { ...record.view }, ...(record.result ? { result: record.result } : {}), ...(record.error ? { error: record.error } : {}) };
  }

  /** Calls `listener` with the task after each change, until the returned stop; undefined when there is no such task. */
  watch(taskId: string, listener: (snapshot: TaskSnapshot) => void): (() => void) | undefined {
    const record = this.tasks.get(taskId);
    if (!record) return undefined;
    record.watchers.add(listener);
    return () => record.watchers.delete(listener);
  }

  list(): TaskView[] {
    return [...this.tasks.values()].map((r) => ({ ...r.view }));
  }

  /** Updates a working task's message (what the run is doing). */
  progress(taskId: string, statusMessage: string): void {
    const record = this.tasks.get(taskId);
    if (!record || isTerminal(record.view.status)) return;
    record.view = { ...record.view, statusMessage, lastUpdatedAt: new Date().toISOString() };
    this.changed(record);
  }

  /** Stores the outcome; a task already cancelled keeps its status. */
  finish(taskId: string, status: 'completed' | 'failed', result: CallToolResult): void {
    const record = this.tasks.get(taskId);
    if (!record || isTerminal(record.view.status)) return;
    record.result = result;
    record.view = { ...record.view, status, lastUpdatedAt: new Date().toISOString() };
    record.settle();
    this.changed(record);
  }

  /** The work threw: a failed task, with the error (and, for 2025-11-25, an error result). */
  fail(taskId: string, error: TaskError): void {
    const record = this.tasks.get(taskId);
    if (!record || isTerminal(record.view.status)) return;
    record.error = error;
    record.result = { isError: true, content: [{ type: 'text', text: error.message }] };
    record.view = { ...record.view, status: 'failed', statusMessage: error.message, lastUpdatedAt: new Date().toISOString() };
    record.settle();
    this.changed(record);
  }

  /** Sets what a host's tasks/cancel stops besides the work, and the status it then shows. */
  onHostCancel(taskId: string, stop: () => void, statusMessage: string): void {
    const record = this.tasks.get(taskId);
    if (record) record.onHostCancel = { stop, statusMessage };
  }

  /** The host's tasks/cancel: cancels the task and runs its onHostCancel. */
  cancelByHost(taskId: string): TaskView | undefined {
    const record = this.tasks.get(taskId);
    const hook = record && !isTerminal(record.view.status) ? record.onHostCancel : undefined;
    hook?.stop();
    return this.cancel(taskId, hook?.statusMessage);
  }

  /** Forgets a task that never reached its host (its call answered without waiting). */
  discard(taskId: string): void {
    this.drop(taskId);
  }

  /** Cancels a working task and stops its work; undefined when there is no such task. */
  cancel(taskId: string, statusMessage = 'The wait was cancelled; the run itself goes on.'): TaskView | undefined {
    const record = this.tasks.get(taskId);
    if (!record) return undefined;
    if (!isTerminal(record.view.status)) {
      record.view = { ...record.view, status: 'cancelled', statusMessage, lastUpdatedAt: new Date().toISOString() };
      record.controller.abort();
      record.settle();
      this.changed(record);
    }
    return { ...record.view };
  }

  /** Waits (at most until `signal`) for the task to end; then its view and stored result. */
  async outcome(taskId: string, signal?: AbortSignal): Promise<{ view: TaskView; result?: CallToolResult } | undefined> {
    const record = this.tasks.get(taskId);
    if (!record) return undefined;
    if (!isTerminal(record.view.status)) {
      await new Promise<void>((resolve) => {
        const onAbort = () => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
        void record.done.then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    return { view: { ...record.view }, ...(record.result ? { result: record.result } : {}) };
  }

  /** Stops all work and drops every task and timer. */
  close(): void {
    for (const record of this.tasks.values()) {
      record.controller.abort();
      clearTimeout(record.expiry);
      record.settle();
      record.watchers.clear();
    }
    this.tasks.clear();
  }

  private drop(taskId: string): void {
    const record = this.tasks.get(taskId);
    if (!record) return;
    record.controller.abort();
    clearTimeout(record.expiry);
    record.settle();
    record.watchers.clear();
    this.tasks.delete(taskId);
  }

  private changed(record: TaskRecord): void {
    if (record.watchers.size === 0) return;
    const snapshot = this.snapshot(record.view.taskId)!;
    for (const listener of [...record.watchers]) listener(snapshot);
  }

  private makeRoom(): void {
    if (this.tasks.size < MAX_TASKS) return;
    const finished = [...this.tasks.values()].find((r) => isTerminal(r.view.status));
    if (!finished) throw new TaskLimitError(`This server already runs ${MAX_TASKS} waits; cancel some or wait for them to end.`);
    this.drop(finished.view.taskId);
  }
}
