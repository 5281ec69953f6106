import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CreateTaskRequestHandlerExtra } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerContext } from '../context.js';
import type { CancellableTaskStore } from '../tasks/cancellable-task-store.js';
import { followWithProgress } from '../wait/follow-with-progress.js';
import { waitForRunOutput, waitResult } from '../wait/wait-result.js';
import { waitTimeoutArgument, waitTimeoutMs } from '../wait/wait-timeout-argument.js';
import { runIdArgument } from './run-id-argument.js';
import { toolErrorResult } from './tool-error.js';

/** How often a task-aware host is told to poll `tasks/get`; also the SDK's own poll for plain calls. */
const TASK_POLL_INTERVAL_MS = 250;
/** How long a finished wait's result stays fetchable when the host names no ttl. */
const RESULT_TTL_MS = 10 * 60_000;
/** Node timers overflow past 24.8 days; no task needs to live longer than a week. */
const MAX_TTL_MS = 7 * 24 * 3_600_000;

interface WaitArgs {
  run_id: string;
  timeout?: string | undefined;
}

/** Runs one wait behind a task and stores its result; never throws (it runs detached). */
async function runWaitTask(
  ctx: ServerContext,
  tasks: CancellableTaskStore,
  taskId: string,
  args: WaitArgs,
  extra: CreateTaskRequestHandlerExtra,
): Promise<void> {
  const controller = tasks.track(taskId);
  // A plain call is cancelled through its request; a task through tasks/cancel (see the store).
  const onAbort = () => controller.abort();
  if (extra.signal.aborted) controller.abort();
  else extra.signal.addEventListener('abort', onAbort, { once: true });
  const progressToken = extra._meta?.progressToken;
  let progress = 0;

  let status: 'completed' | 'failed';
  let result: CallToolResult;
  try {
    const outcome = await followWithProgress(ctx.client, args.run_id, {
      timeoutMs: waitTimeoutMs(args.timeout),
      signal: controller.signal,
      heartbeatMs: ctx.heartbeatMs,
      pollIntervalMs: ctx.pollIntervalMs,
      onProgress: async (message) => {
        if (progressToken === undefined) return;
        progress += 1;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, message },
        });
      },
      // Hosts polling tasks/get see where the run is.
      onStateChange: (run) =>
        extra.taskStore.updateTaskStatus(taskId, 'working', `Run ${run.run_id} is ${run.state}`).catch(() => {}),
    });
    result = waitResult(args.run_id, outcome);
    status = 'completed';
  } catch (error) {
    if (controller.signal.aborted) {
      await extra.taskStore
        .updateTaskStatus(taskId, 'cancelled', 'The wait was cancelled; the run itself goes on.')
        .catch(() => {});
      return;
    }
    result = toolErrorResult(error, { tool: 'wait_for_run', doing: `wait for run ${args.run_id}`, names: 'run' }, ctx.client);
    status = 'failed';
  } finally {
    tasks.untrack(taskId);
    extra.signal.removeEventListener('abort', onAbort);
  }
  // The task may have been cancelled or expired meanwhile; then nobody wants the result.
  await extra.taskStore.storeTaskResult(taskId, status, result).catch(() => {});
}

export function registerWaitForRunTool(server: McpServer, ctx: ServerContext, tasks: CancellableTaskStore): void {
  server.experimental.tasks.registerToolTask(
    'wait_for_run',
    {
      title: 'Wait for a cloud agent run to finish',
      description:
        'Blocks until a run reaches a terminal state (SUCCEEDED, FAILED, ERROR, CANCELLED, or BLOCKED which needs a ' +
        'person) and returns the run with its status message. Sends progress notifications such as ' +
        '"INPROGRESS · 3m12s" while it waits. If `timeout` (default 10m) passes first, it returns the last state ' +
        'seen with timed_out: true and a note; the run goes on, so call it again to keep waiting. Also available ' +
        'as an MCP task for hosts that support tasks.',
      inputSchema: { run_id: runIdArgument, timeout: waitTimeoutArgument },
      outputSchema: waitForRunOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
      execution: { taskSupport: 'optional' },
    },
    {
      createTask: async (args, extra) => {
        const timeoutMs = waitTimeoutMs(args.timeout);
        const task = await extra.taskStore.createTask({
          // The task must outlive the wait, whatever ttl the host asked for.
          ttl: Math.min(MAX_TTL_MS, Math.max(extra.taskRequestedTtl ?? RESULT_TTL_MS, timeoutMs + RESULT_TTL_MS)),
          pollInterval: TASK_POLL_INTERVAL_MS,
        });
        void runWaitTask(ctx, tasks, task.taskId, args, extra);
        return { task };
      },
      getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
    },
  );
}
