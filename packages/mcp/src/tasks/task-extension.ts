import { z } from 'zod';
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type McpServer,
  type ServerContext as RequestContext,
} from '@modelcontextprotocol/server';
import { wrapRequestHandler } from '../sdk/wrap-request-handler.js';
import { TaskLimitError, type TaskRegistry, type TaskSnapshot, type TaskView } from './task-registry.js';
import { taskScope } from './task-scope.js';

/** The extension of revision 2026-07-28 that carries tasks (SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A tool that may answer with a task, and whether these arguments make it wait. */
export interface TaskableTool {
  name: string;
  waits: (args: Record<string, unknown>) => boolean;
  /** How long the task must be kept at least: past the wait these arguments ask for. */
  minTtlMs: (args: Record<string, unknown>) => number;
}

type Outcome = { kind: 'result'; result: CallToolResult } | { kind: 'error'; error: unknown };

/** Whether this request's own capabilities name the tasks extension (2026-07-28 has no initialize). */
export function declaresTasks(request: RequestContext): boolean {
  const envelope = request.mcpReq.envelope as Record<string, ClientCapabilities | undefined> | undefined;
  const extensions = envelope?.[CLIENT_CAPABILITIES_META_KEY]?.extensions as Record<string, unknown> | undefined;
  return extensions?.[TASKS_EXTENSION] !== undefined;
}

/** A task as the extension's wire shows it (`ttlMs`, `pollIntervalMs`). */
export function wireTask(view: TaskView) {
  const { ttl, pollInterval, ...rest } = view;
  return { ...rest, ttlMs: ttl, ...(pollInterval !== undefined ? { pollIntervalMs: pollInterval } : {}) };
}

/**
 * `tasks/get`'s answer: a tool result (even one with isError) is `completed` with `result`;
 * only an error of the call itself is `failed`, with `error`.
 */
export function detailedTask({ view, result, error }: TaskSnapshot) {
  const task = wireTask(view);
  if (view.status === 'failed' && error) return { ...task, error };
  if ((view.status === 'completed' || view.status === 'failed') && result) return { ...task, status: 'completed' as const, result };
  return task;
}

function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `No task ${taskId}: it ended more than its ttl ago, or never existed.`);
}

function requireDeclared(request: RequestContext): void {
  if (!declaresTasks(request)) {
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      `Declare the ${TASKS_EXTENSION} extension in this request's client capabilities to use tasks.`,
    );
  }
}

const taskIdParams = z.looseObject({ taskId: z.string().min(1) });

/**
 * The tasks extension of revision 2026-07-28: a `tools/call` of one of `tools` from a
 * host that declares the extension, once the tool starts to wait, is answered with a task
 * (`resultType: "task"`) while the wait goes on in the registry; `tasks/get` shows its
 * status and, at the end, its result; `tasks/cancel` stops it; `tasks/update` has nothing
 * to answer (these tasks never ask). A call that answers before waiting (a question for
 * the user, an error) answers as usual. Hosts without the extension get plain calls.
 */
export function installTaskExtension(server: McpServer, registry: TaskRegistry, tools: readonly TaskableTool[]): void {
  const wrapped = wrapRequestHandler(server, 'tools/call', (callTool) => async (request, ctx) => {
    const params = request.params ?? {};
    const tool = tools.find((t) => t.name === params.name);
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    if (!tool || !declaresTasks(ctx) || !tool.waits(args)) return callTool(request, ctx);
    let created;
    try {
      created = registry.create(undefined, tool.minTtlMs(args));
    } catch (error) {
      // Past the cap the server chooses the plain call, which the extension allows.
      if (error instanceof TaskLimitError) return callTool(request, ctx);
      throw error;
    }
    const { view, signal } = created;
    // Until the task is handed over, the request's own cancellation ends it.
    let handedOver = false;
    const onRequestAbort = () => {
      if (!handedOver) registry.cancel(view.taskId);
    };
    ctx.mcpReq.signal.addEventListener('abort', onRequestAbort, { once: true });
    let started!: () => void;
    const waiting = new Promise<undefined>((resolve) => (started = () => resolve(undefined)));
    // Progress notifications do not apply to tasks: the status message carries it.
    const { progressToken: _token, ...meta } = (ctx.mcpReq._meta ?? {}) as Record<string, unknown>;
    const taskCtx = { ...ctx, mcpReq: { ...ctx.mcpReq, signal, _meta: meta } } as RequestContext;
    const work: Promise<Outcome> = taskScope.run({ taskId: view.taskId, started }, () => callTool(request, taskCtx)).then(
      (result) => ({ kind: 'result', result: result as CallToolResult }),
      (error: unknown) => ({ kind: 'error', error }),
    );
    const first = await Promise.race([waiting, work]);
    ctx.mcpReq.signal.removeEventListener('abort', onRequestAbort);
    if (first) {
      registry.discard(view.taskId);
      if (first.kind === 'error') throw first.error;
      return first.result;
    }
    handedOver = true;
    void work.then((outcome) => {
      if (outcome.kind === 'result') registry.finish(view.taskId, outcome.result.isError ? 'failed' : 'completed', outcome.result);
      else if (signal.aborted) registry.cancel(view.taskId);
      else {
        const { error } = outcome;
        const code = error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError;
        registry.fail(view.taskId, { code, message: error instanceof Error ? error.message : String(error) });
      }
    });
    return { resultType: 'task', ...wireTask(registry.get(view.taskId) ?? view) };
  });
  if (!wrapped) return;
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });

  server.server.setRequestHandler('tasks/get', { params: taskIdParams }, async ({ taskId }, ctx) => {
    requireDeclared(ctx);
    const snapshot = registry.snapshot(taskId);
    if (!snapshot) throw unknownTask(taskId);
    return detailedTask(snapshot);
  });
  server.server.setRequestHandler(
    'tasks/update',
    { params: z.looseObject({ taskId: z.string().min(1), inputResponses: z.record(z.string(), z.unknown()).optional() }) },
    async ({ taskId }, ctx) => {
      requireDeclared(ctx);
      // These tasks never ask, so every response is for a key that is not outstanding: ignored.
      if (!registry.get(taskId)) throw unknownTask(taskId);
      return {};
    },
  );
  server.server.setRequestHandler('tasks/cancel', { params: taskIdParams }, async ({ taskId }, ctx) => {
    requireDeclared(ctx);
    if (!registry.cancelByHost(taskId)) throw unknownTask(taskId);
    return {};
  });
}
