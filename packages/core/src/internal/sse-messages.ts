import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One event's fields are capped, so a server that never ends a line cannot grow memory without bound. */
const MAX_EVENT_CHARS = 8 * 1024 * 1024;

/**
 * Server-Sent Events parsed from a byte stream, in order. `onActivity` runs for every
 * chunk received, comments (heartbeats) included, so a caller can notice a silent connection.
 */
export async function* sseMessages(body: AsyncIterable<Uint8Array>, onActivity: () => void): AsyncGenerator<EventSourceMessage> {
  const ready: EventSourceMessage[] = [];
  let failure: Error | undefined;
  const parser = createParser({
    maxBufferSize: MAX_EVENT_CHARS,
    onEvent: (message) => ready.push(message),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure = error;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    onActivity();
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (failure) throw failure;
    while (ready.length) yield ready.shift()!;
  }
}
