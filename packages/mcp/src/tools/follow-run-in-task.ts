import type { ServerContext as RequestContext } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import type { TaskReport } from '../tasks/task-scope.js';
import { followWithProgress, type FollowWithProgressOutcome } from '../wait/follow-with-progress.js';
import { progressReporter } from '../wait/progress-sender.js';

/** Follows a run for a task's wait: its progress goes to the task's status and, when asked for, to the host. */
export function followRunInTask(
  ctx: ServerContext,
  task: TaskReport,
  runId: string,
  timeoutMs: number,
  request: RequestContext,
): Promise<FollowWithProgressOutcome> {
  return followWithProgress(ctx.client, runId, {
    timeoutMs,
    signal: task.signal,
    heartbeatMs: ctx.heartbeatMs,
    pollIntervalMs: ctx.pollIntervalMs,
    // Hosts polling tasks/get see where the run is, as soon as a notification would.
    onProgress: progressReporter(task, runId, request),
  });
}
