import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OutgoingEvent, RunEventSink } from '../runs/run-event-sink.js';
import type { SseHeartbeat } from './sse-heartbeat.js';

/** Past this many bytes waiting in the socket a watcher goes back to reading the store. */
const BEHIND_BYTES = 1024 * 1024;
/** How long a browser waits before reconnecting after a drop. */
const RETRY_MS = 2000;

/**
 * Starts a `text/event-stream` answer and returns the sink that writes events to it.
 * `onGone` runs once when the receiver disconnects or the stream is ended.
 */
export function openSseResponse(req: IncomingMessage, res: ServerResponse, heartbeat: SseHeartbeat, onGone: () => void): RunEventSink {
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
  const finish = () => {
    if (gone) return;
    gone = true;
    heartbeat.delete(res);
    onGone();
  };
  res.once('close', finish);
  return {
    send(event: OutgoingEvent): boolean {
      if (gone || res.writableEnded) return true;
      // JSON has no raw line breaks, so the data is always one `data:` line.
      res.write(`${event.id !== undefined ? `id: ${event.id}\n` : ''}event: ${event.name}\ndata: ${event.data}\n\n`);
      return res.writableLength < BEHIND_BYTES;
    },
    onceDrained(fn) {
      if (gone) return;
      res.once('drain', fn);
    },
    end() {
      if (!gone) res.end();
      finish();
    },
  };
}
