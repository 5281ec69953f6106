import { z } from 'zod';
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type McpServer, type ServerContext as RequestContext } from '@modelcontextprotocol/server';
import { TaskLimitError, type TaskRegistry } from './task-registry.js';
import { wrapRequestHandler } from '../sdk/wrap-request-handler.js';
import { taskScope } from './task-scope.js';

/** The 2025-11-25 `_meta` key tying a result to its task. */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

const taskIdParams = z.looseObject({ taskId: z.string().min(1) });

function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `No task ${taskId}: it ended more than its ttl ago, or never existed. Call tasks/list for the current ones.`);
}

/**
 * The experimental tasks of revision 2025-11-25 (SDK v2 no longer runs them): a
 * `tools/call` with `task` for one of `toolNames` answers at once with the task, whose work
 * goes on in the registry; `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`
 * read and stop it. Installed after the tools, on servers of that revision only.
 */
export function installTaskWire(server: McpServer, registry: TaskRegistry, toolNames: readonly string[], minTtlMs: number): void {
  const wrapped = wrapRequestHandler(server, 'tools/call', (callTool) => async (request, ctx) => {
    const params = request.params ?? {};
    const task = params.task as { ttl?: unknown } | undefined;
    if (!task || typeof task !== 'object' || !toolNames.includes(String(params.name))) return callTool(request, ctx);
    let created;
    try {
      created = registry.create(typeof task.ttl === 'number' ? task.ttl : undefined, minTtlMs);
    } catch (error) {
      if (error instanceof TaskLimitError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
      throw error;
    }
    const { view, signal } = created;
    const { task: _task, ...plain } = params;
    const taskCtx = { ...ctx, mcpReq: { ...ctx.mcpReq, signal } } as RequestContext;
    void taskScope
      .run({ taskId: view.taskId }, () => callTool({ ...request, params: plain }, taskCtx))
      .then(
        (result) => registry.finish(view.taskId, (result as CallToolResult).isError ? 'failed' : 'completed', result as CallToolResult),
        (error: unknown) => {
          if (signal.aborted) registry.cancel(view.taskId);
          else registry.finish(view.taskId, 'failed', { isError: true, content: [{ type: 'text', text: (error as Error).message }] });
        },
      );
    return { task: view };
  });
  if (!wrapped) return;
  server.server.registerCapabilities({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } as never);
  // Tools that run as tasks say so in tools/list.
  wrapRequestHandler(server, 'tools/list', (listTools) => async (request, ctx) => {
    const listed = (await listTools(request, ctx)) as { tools: Array<{ name: string }> };
    return { ...listed, tools: listed.tools.map((tool) => (toolNames.includes(tool.name) ? { ...tool, execution: { taskSupport: 'optional' } } : tool)) };
  });

  server.server.setRequestHandler('tasks/get', { params: taskIdParams }, async ({ taskId }) => {
    const view = registry.get(taskId);
    if (!view) throw unknownTask(taskId);
    return { ...view };
  });
  server.server.setRequestHandler('tasks/cancel', { params: taskIdParams }, async ({ taskId }) => {
    const view = registry.cancelByHost(taskId);
    if (!view) throw unknownTask(taskId);
    return { ...view };
  });
  server.server.setRequestHandler('tasks/list', { params: z.looseObject({ cursor: z.string().optional() }) }, async () => ({
    tasks: registry.list(),
  }));
  server.server.setRequestHandler('tasks/result', { params: taskIdParams }, async ({ taskId }, ctx) => {
    const outcome = await registry.outcome(taskId, ctx.mcpReq.signal);
    if (!outcome) throw unknownTask(taskId);
    if (!outcome.result) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${taskId} is ${outcome.view.status}: it has no result.`);
    }
    return { ...outcome.result, _meta: { ...outcome.result._meta, [RELATED_TASK]: { taskId } } };
  });
}
