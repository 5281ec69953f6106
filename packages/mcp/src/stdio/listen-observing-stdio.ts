import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

type JsonRpcId = string | number;

/**
 * The process's stdio for `serveStdio`, telling `listens` when each `subscriptions/listen`
 * stream opens (its request) and ends (the host's cancellation, the server's own answer
 * to it, or the connection's end): the entry serves the stream, but only we know which
 * runs to follow for it.
 */
export function listenObservingStdio(listens: { open(params: unknown): () => void }): Transport {
  const inner = new StdioServerTransport();
  const open = new Map<JsonRpcId, () => void>();
  const end = (id: unknown) => {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    open.get(id)?.();
    open.delete(id);
  };
  const outer: Transport = {
    start: async () => {
      inner.onmessage = (message: JSONRPCMessage) => {
        const m = message as { id?: JsonRpcId; method?: string; params?: { requestId?: unknown } };
        if (m.method === 'subscriptions/listen' && m.id !== undefined && !open.has(m.id)) open.set(m.id, listens.open(m.params));
        else if (m.method === 'notifications/cancelled') end(m.params?.requestId);
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
      await inner.send(message);
    },
    close: () => inner.close(),
  };
  return outer;
}
