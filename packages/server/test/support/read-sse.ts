import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent {
  id: number | undefined;
  event: string;
  data: any;
  /** ms since the read began. */
  at: number;
}

export interface SseRead {
  status: number;
  events: SseEvent[];
  comments: number;
  /** Resolves when the server ends the stream (or `stop` is called). */
  ended: Promise<void>;
  /** Resolves once `predicate` holds for the events read so far. */
  until(predicate: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<void>;
  stop(): void;
}

/** Opens an event stream with fetch and parses it as it arrives. */
export async function readSse(url: string, headers: Record<string, string> = {}): Promise<SseRead> {
  const controller = new AbortController();
  const started = Date.now();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const read: SseRead = {
    status: res.status,
    events,
    comments: 0,
    ended: Promise.resolve(),
    until(predicate, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out; events so far: ${JSON.stringify(events.map((e) => [e.id, e.event]))}`));
        }, timeoutMs);
        const check = () => {
          if (!predicate(events)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    },
    stop: () => controller.abort(),
  };
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      events.push({ id: message.id === undefined ? undefined : Number(message.id), event: message.event ?? 'message', data: JSON.parse(message.data), at: Date.now() - started });
      for (const waiter of [...waiters]) waiter();
    },
    onComment() {
      read.comments++;
      for (const waiter of [...waiters]) waiter();
    },
  });
  read.ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  })();
  return read;
}

/** The output text of a list of events, in order. */
export const outputText = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'output')
    .map((e) => e.data.text)
    .join('');
