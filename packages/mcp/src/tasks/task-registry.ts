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

interface TaskRecord {
  view: TaskView;
  controller: AbortController;
  result?: CallToolResult;
  done: Promise<void>;
  settle: () => void;
  expiry?: NodeJS.Timeout;
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

  list(): TaskView[] {
    return [...this.tasks.values()].map((r) => ({ ...r.view }));
  }

  /** Updates a working task's message (what the run is doing). */
  progress(taskId: string, statusMessage: string): void {
    const record = this.tasks.get(taskId);
    if (!record || isTerminal(record.view.status)) return;
    record.view = { ...record.view, statusMessage, lastUpdatedAt: new Date().toISOString() };
  }

  /** Stores the outcome; a task already cancelled keeps its status. */
  finish(taskId: string, status: 'completed' | 'failed', result: CallToolResult): void {
    const record = this.tasks.get(taskId);
    if (!record || isTerminal(record.view.status)) return;
    record.result = result;
    record.view = { ...record.view, status, lastUpdatedAt: new Date().toISOString() };
    record.settle();
  }

  /** Cancels a working task and stops its work; undefined when there is no such task. */
  cancel(taskId: string, statusMessage = 'The wait was cancelled; the run itself goes on.'): TaskView | undefined {
    const record = this.tasks.get(taskId);
    if (!record) return undefined;
    if (!isTerminal(record.view.status)) {
      record.view = { ...record.view, status: 'cancelled', statusMessage, lastUpdatedAt: new Date().toISOString() };
      record.controller.abort();
      record.settle();
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
    }
    this.tasks.clear();
  }

  private drop(taskId: string): void {
    const record = this.tasks.get(taskId);
    if (!record) return;
    record.controller.abort();
    clearTimeout(record.expiry);
    record.settle();
    this.tasks.delete(taskId);
  }

  private makeRoom(): void {
    if (this.tasks.size < MAX_TASKS) return;
    const finished = [...this.tasks.values()].find((r) => isTerminal(r.view.status));
    if (!finished) throw new TaskLimitError(`This server already runs ${MAX_TASKS} waits; cancel some or wait for them to end.`);
    this.drop(finished.view.taskId);
  }
}
