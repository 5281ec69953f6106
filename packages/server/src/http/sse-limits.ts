import { ApiProblem } from './api-problem.js';

/** How many event streams may be open, and how much each may hold for a reader that does not read. */
export interface EventStreamLimitOptions {
  /** Streams one principal's keys may hold open at once. Default 1000. */
  perPrincipal?: number;
  /** Streams one session link may hold open at once (its page, a few tabs). Default 8. */
  perSessionLink?: number;
  /** Streams open on this server at once. Default 4000. */
  total?: number;
  /** Bytes waiting for one reader before it is behind: no more events until it reads. Default 64 KiB. */
  bufferBytes?: number;
  /** Bytes waiting for all readers together; past it a reader that is behind is disconnected at once. Default 64 MiB. */
  totalBufferBytes?: number;
  /** A reader behind for this long is disconnected; it resumes with Last-Event-ID. Default 30 000 ms. */
  slowReaderMs?: number;
}

const DEFAULTS: Required<EventStreamLimitOptions> = {
  perPrincipal: 1000,
  perSessionLink: 8,
  total: 4000,
  bufferBytes: 64 * 1024,
  totalBufferBytes: 64 * 1024 * 1024,
  slowReaderMs: 30_000,
};

/** Comes back with Retry-After: a stream closes as soon as its run ends or its reader leaves. */
const RETRY_AFTER_SECONDS = 5;

/** One admitted stream: what it holds in its socket counts toward the server's total until it is released. */
export interface StreamTicket {
  readonly bufferBytes: number;
  readonly slowReaderMs: number;
  /** Records the bytes now waiting in this stream's socket; false when all streams together hold too much. */
  holding(bytes: number): boolean;
  release(): void;
}

/** Counts the open event streams by who holds them and the bytes they hold, refusing past the limits. */
export class EventStreamLimits {
  readonly options: Required<EventStreamLimitOptions>;
  private readonly open = new Map<string, number>();
  private openTotal = 0;
  private heldTotal = 0;

  constructor(options: EventStreamLimitOptions = {}) {
    this.options = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  }

  /** Bytes waiting in all streams' sockets, as last seen. */
  get heldBytes(): number {
    return this.heldTotal;
  }

  /** Admits one more stream for `principal` (and `sessionLink`, for a page's stream), or throws 429. */
  admit(principal: string, sessionLink?: string): StreamTicket {
    const { perPrincipal, perSessionLink, total } = this.options;
    const keys: [string, number, string][] = [[`principal:${principal}`, perPrincipal, 'this API key’s principal']];
    if (sessionLink !== undefined) keys.push([`session:${sessionLink}`, perSessionLink, 'this session link']);
    if (this.openTotal >= total) throw tooMany(`this server has ${total} event streams open, its limit`);
    for (const [key, limit, whose] of keys) {
      if ((this.open.get(key) ?? 0) >= limit) throw tooMany(`${whose} has ${limit} event streams open, the limit; close one first`);
    }
    for (const [key] of keys) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    this.openTotal++;
    let held = 0;
    let released = false;
    return {
      bufferBytes: this.options.bufferBytes,
      slowReaderMs: this.options.slowReaderMs,
      holding: (bytes) => {
        if (!released) {
          this.heldTotal += bytes - held;
          held = bytes;
        }
        return this.heldTotal <= this.options.totalBufferBytes;
      },
      release: () => {
        if (released) return;
        released = true;
        this.heldTotal -= held;
        this.openTotal--;
        for (const [key] of keys) {
          const n = (this.open.get(key) ?? 1) - 1;
          if (n === 0) this.open.delete(key);
          else this.open.set(key, n);
        }
      },
    };
  }
}

function tooMany(why: string): ApiProblem {
  return new ApiProblem('rate_limited', `Too many event streams: ${why}.`, { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } });
}
