import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OutgoingEvent, RunEventSink } from '../domain/run-event-sink.js';
import type { SseHeartbeat } from './sse-heartbeat.js';
import type { StreamTicket } from './sse-limits.js';
/** How long a browser waits before reconnecting after a drop. */
const RETRY_MS = 2000;

/**
 * Starts a `text/event-stream` answer and returns the sink that writes events to it.
 * `onGone` runs once when the receiver disconnects or the stream is ended. Past the
 * ticket's bytes waiting in the socket the reader is behind: the watcher sends nothing more
 * until it reads (then goes on from the store), and a reader behind too long, or while
 * all streams hold too much, is disconnected: it resumes with Last-Event-ID.
 */
export function openSseResponse(
  req: IncomingMessage,
  res: ServerResponse,
  heartbeat: SseHeartbeat,
  onGone: () => void,
  ticket: StreamTicket,
): RunEventSink {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  if (req.method === 'HEAD') res.end();
  else res.write(`retry: ${RETRY_MS}\n\n`);
  // Events are small and must leave at once.
  req.socket.setNoDelay(true);
  heartbeat.add(res);
  let gone = false;
  let slowTimer: NodeJS.Timeout | undefined;
  const finish = () => {
    if (gone) return;
    gone = true;
    clearTimeout(slowTimer);
    heartbeat.delete(res);
    ticket.release();
    onGone();
  };
  res.once('close', finish);
  // The socket is closed under the reader; its client reconnects with the last id it got.
  const disconnect = () => res.destroy();
  return {
    send(event: OutgoingEvent): boolean {
      if (gone || res.writableEnded) return true;
      // JSON has no raw line breaks, so the data is always one `data:` line.
      const flowing = res.write(`${event.id !== undefined ? `id: ${event.id}\n` : ''}event: ${event.name}\ndata: ${event.data}\n\n`);
      const held = res.writableLength;
      const withinTotal = ticket.holding(held);
      // A reader keeping up holds little; over the total, only those behind are let go.
      if (held < ticket.bufferBytes && (withinTotal || flowing)) return true;
      // No 'drain' comes for a socket that took the write: nothing to wait for then.
      if (!withinTotal || flowing) disconnect();
      else if (!slowTimer) slowTimer = setTimeout(disconnect, ticket.slowReaderMs).unref();
      return false;
    },
    onceDrained(fn) {
      if (gone) return;
      res.once('drain', () => {
        clearTimeout(slowTimer);
        slowTimer = undefined;
        ticket.holding(res.writableLength);
        fn();
      });
    },
    end() {
      if (!gone) res.end();
      finish();
    },
  };
}
