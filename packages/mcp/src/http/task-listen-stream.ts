import { followTasks } from '../tasks/task-listens.js';
import type { TaskRegistry } from '../tasks/task-registry.js';

const encoder = new TextEncoder();
const frame = (message: object) => encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);

/** The JSON-RPC message of one SSE frame (its `data:` lines), if it has one. */
function messageOf(text: string): Record<string, unknown> | undefined {
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (!data) return undefined;
  try {
    return JSON.parse(data) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * SDK 2.4.0's HTTP listen stream with the tasks extension's part added: its acknowledgement
 * names the `taskIds` this server holds, each of those tasks follows it as it is now and at
 * each change as `notifications/tasks`, and the stream's own end (which the SDK sends at once
 * when it serves nothing else) waits until those tasks have ended or the host goes.
 */
export function withTaskNotifications(response: Response, registry: TaskRegistry, taskIds: string[], subscriptionId: string | number): Response {
  if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let follow: ReturnType<typeof followTasks> | undefined;
  let tasksLive = false;
  let held: Uint8Array | undefined;
  let sdkDone = false;
  let closed = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const finish = () => {
    if (closed) return;
    closed = true;
    follow?.stop();
    if (held) controller.enqueue(held);
    controller.close();
  };
  const enqueue = (bytes: Uint8Array) => {
    if (!closed) controller.enqueue(bytes);
  };
  const pump = async () => {
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const text = buffer.slice(0, end + 2);
        buffer = buffer.slice(end + 2);
        const message = messageOf(text);
        const params = message?.params as { notifications?: Record<string, unknown> } | undefined;
        if (message?.method === 'notifications/subscriptions/acknowledged' && !follow) {
          follow = followTasks(registry, taskIds, subscriptionId, (note) => enqueue(frame({ jsonrpc: '2.0', ...note })), () => {
            tasksLive = false;
            if (sdkDone || held) finish();
          });
          tasksLive = follow.taskIds.length > 0;
          enqueue(frame({ ...message, params: { ...params, notifications: { ...params?.notifications, taskIds: follow.taskIds } } }));
          follow.current();
        } else if (message && message.id === subscriptionId && 'result' in message && tasksLive) {
          // The stream's graceful end waits for the tasks it follows.
          held = encoder.encode(text);
        } else enqueue(encoder.encode(text));
      }
    }
    sdkDone = true;
    if (!tasksLive) finish();
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      pump().catch(() => finish());
    },
    cancel() {
      closed = true;
      follow?.stop();
      void reader.cancel().catch(() => {});
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
