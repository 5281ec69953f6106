import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallToolResult, ServerContext as RequestContext } from '@modelcontextprotocol/server';
import type { TaskRegistry } from './task-registry.js';

/**
 * Set while a tool runs behind a task the host asked for (2025-11-25) or may be given
 * (2026-07-28): the task it reports to, and `started`, which tells the 2026-07-28 wire
 * that the call now waits (its first status), so the host gets the task instead of a result.
 */
export const taskScope = new AsyncLocalStorage<{ taskId: string; started?: () => void }>();

export interface TaskReport {
  /** Aborts when the host cancels the call or the task, or the server closes. */
  signal: AbortSignal;
  /** What the work is doing now, for hosts polling the task. */
  status(message: string): void;
  /** What a host's tasks/cancel stops besides the wait (the run a create_run started), and the status then shown. */
  onHostCancel(stop: () => void, statusMessage: string): void;
}

/**
 * Runs a long wait as a task: under a host's task (see task-wire and task-extension) it
 * reports to that task; as a plain call it still gets one, so cancelling the call ends the
 * task as cancelled and tasks/list shows it, whichever way the host asked.
 */
export async function runAsTask(
  registry: TaskRegistry,
  request: RequestContext,
  minTtlMs: number,
  work: (report: TaskReport) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const scope = taskScope.getStore();
  if (scope) {
    const { taskId } = scope;
    return work({
      signal: request.mcpReq.signal,
      // The first status means the run was found and the wait is under way: now it is a task.
      status: (m) => {
        registry.progress(taskId, m);
        scope.started?.();
      },
      onHostCancel: (stop, message) => registry.onHostCancel(taskId, stop, message),
    });
  }
  const { view, signal } = registry.create(undefined, minTtlMs);
  const onAbort = () => registry.cancel(view.taskId);
  if (request.mcpReq.signal.aborted) onAbort();
  else request.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await work({
      signal,
      status: (m) => registry.progress(view.taskId, m),
      onHostCancel: (stop, message) => registry.onHostCancel(view.taskId, stop, message),
    });
    registry.finish(view.taskId, result.isError ? 'failed' : 'completed', result);
    return result;
  } catch (error) {
    if (signal.aborted) registry.cancel(view.taskId);
    else registry.finish(view.taskId, 'failed', { isError: true, content: [{ type: 'text', text: String(error) }] });
    throw error;
  } finally {
    request.mcpReq.signal.removeEventListener('abort', onAbort);
  }
}
