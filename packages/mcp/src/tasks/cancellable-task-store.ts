import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import type { Task } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's in-memory task store, plus a way for the work behind a task to learn that the
 * task was cancelled (`tasks/cancel` only changes the stored status) or that the server is
 * closing, so that no wait polls on for nobody.
 */
export class CancellableTaskStore extends InMemoryTaskStore {
  private readonly work = new Map<string, AbortController>();

  /** An AbortController that fires when the task is cancelled or the store closes. */
  track(taskId: string): AbortController {
    const controller = new AbortController();
    this.work.set(taskId, controller);
    return controller;
  }

  untrack(taskId: string): void {
    this.work.delete(taskId);
  }

  override async updateTaskStatus(
    taskId: string,
    status: Task['status'],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status === 'cancelled') this.work.get(taskId)?.abort();
  }

  /** Stops all work and drops every task and timer. */
  close(): void {
    for (const controller of this.work.values()) controller.abort();
    this.work.clear();
    this.cleanup();
  }
}
