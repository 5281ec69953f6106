import type { ServerResponse } from 'node:http';

/** Comment lines keep idle streams open through proxies; at most this long apart. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/**
 * One timer for every open event stream: each tick writes a comment to all of them, so
 * a thousand idle streams cost one timer and no work between ticks. The timer runs only
 * while a stream is open and never keeps the process alive.
 */
export class SseHeartbeat {
  private readonly streams = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly intervalMs = DEFAULT_HEARTBEAT_MS) {}

  add(res: ServerResponse): void {
    this.streams.add(res);
    if (!this.timer) {
      this.timer = setInterval(() => this.beat(), this.intervalMs);
      this.timer.unref();
    }
  }

  delete(res: ServerResponse): void {
    this.streams.delete(res);
    if (this.streams.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private beat(): void {
    for (const res of this.streams) res.write(':\n\n');
  }
}
