import { SUBSCRIPTION_ID_META_KEY, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { followTasks, listenedTaskIds, undeclaredTasksError } from '../tasks/task-listens.js';
import type { TaskRegistry } from '../tasks/task-registry.js';

type JsonRpcId = string | number;
type Message = { id?: JsonRpcId; method?: string; params?: { requestId?: unknown; notifications?: Record<string, unknown>; _meta?: Record<string, unknown> } };

/**
 * The process's stdio for `serveStdio`, telling `listens` when each `subscriptions/listen`
 * stream opens (its request) and ends (the host's cancellation, the server's own answer
 * to it, or the connection's end): the entry serves the stream, but only we know which
 * runs to follow for it. A stream that names tasks (the tasks extension's `taskIds`,
 * which SDK 2.4.0's entry does not know) also gets each change of those tasks as
 * `notifications/tasks`, and their ids in its acknowledgement.
 */
export function listenObservingStdio(listens: { open(params: unknown): () => void } | undefined, tasks: TaskRegistry): Transport {
  const inner = new StdioServerTransport();
  const open = new Map<JsonRpcId, () => void>();
  /** Listen requests that named tasks, until their acknowledgement goes out. */
  const askedTasks = new Map<JsonRpcId, string[]>();
  const end = (id: unknown) => {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    askedTasks.delete(id);
    open.get(id)?.();
    open.delete(id);
  };
  const send = (message: object) => inner.send(message as JSONRPCMessage).catch((error: unknown) => outer.onerror?.(error as Error));
  const outer: Transport = {
    start: async () => {
      inner.onmessage = (message: JSONRPCMessage) => {
        const m = message as Message;
        if (m.method === 'subscriptions/listen' && m.id !== undefined && !open.has(m.id)) {
          const taskIds = listenedTaskIds(m.params);
          const refusal = taskIds ? undeclaredTasksError(m.params) : undefined;
          if (refusal) return void send({ jsonrpc: '2.0', id: m.id, error: refusal });
          if (taskIds) askedTasks.set(m.id, taskIds);
          open.set(m.id, listens?.open(m.params) ?? (() => {}));
        } else if (m.method === 'notifications/cancelled') end(m.params?.requestId);
        outer.onmessage?.(message);
      };
      inner.onerror = (error) => outer.onerror?.(error);
      inner.onclose = () => {
        for (const id of [...open.keys()]) end(id);
        outer.onclose?.();
      };
      await inner.start();
    },
    send: async (message) => {
      // A response to the listen request itself (a refusal, or the server closing it) ends the stream.
      if ('id' in message && !('method' in message)) end(message.id);
      const m = message as Message;
      const subscriptionId = m.params?._meta?.[SUBSCRIPTION_ID_META_KEY] as JsonRpcId | undefined;
      const taskIds = m.method === 'notifications/subscriptions/acknowledged' && subscriptionId !== undefined ? askedTasks.get(subscriptionId) : undefined;
      if (taskIds === undefined || subscriptionId === undefined) return inner.send(message);
      askedTasks.delete(subscriptionId);
      // Changes come from later events, so the acknowledgement and the tasks as they are now, sent in this same turn, go out first.
      const follow = followTasks(tasks, taskIds, subscriptionId, (note) => void send({ jsonrpc: '2.0', ...note }));
      const stopRuns = open.get(subscriptionId);
      open.set(subscriptionId, () => {
        stopRuns?.();
        follow.stop();
      });
      const acknowledged = inner.send({ ...message, params: { ...m.params, notifications: { ...m.params?.notifications, taskIds: follow.taskIds } } } as JSONRPCMessage);
      follow.current();
      await acknowledged;
    },
    close: () => inner.close(),
  };
  return outer;
}
