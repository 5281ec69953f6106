import { VERSION } from '@agent-runs/core/contract';

/** What the server answered: its status and its body (JSON, else undefined). */
export interface WorkerAnswer {
  status: number;
  body: unknown;
}

/** A request that got no answer (refused, reset, timed out): worth trying again. */
export class NoAnswerError extends Error {
  constructor(
    message: string,
    /** The server it was sent to. */
    readonly server: string,
  ) {
    super(message);
  }
}

/** How long a report or a finish may wait for its answer before it is tried again. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The worker's side of the HTTP connection: every request goes out from here, under the
 * worker token, to `/api/v1/workers/…`. It never logs, and nothing it throws holds the token.
 * Given several servers (sharing one database, so the leases are the same on each), it
 * sends to one, and moves on to the next when a request to it gets no answer.
 */
export class WorkerConnection {
  readonly version = VERSION;
  private current = 0;

  constructor(
    private readonly servers: readonly string[],
    private readonly token: string,
  ) {
    if (servers.length === 0) throw new Error('a worker needs a server');
  }

  /** The server requests go to now. */
  get server(): string {
    return this.servers[this.current]!;
  }

  /** POSTs `body` to `/api/v1/workers/<path>`; waits at most `timeoutMs` (a poll waits longer than a report). */
  async post(path: string, body: unknown, timeoutMs = REQUEST_TIMEOUT_MS, signal?: AbortSignal): Promise<WorkerAnswer> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const sentTo = this.current;
    let response: Response;
    try {
      response = await fetch(`${this.servers[sentTo]}/api/v1/workers/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', 'user-agent': `agent-runs-worker/${VERSION}` },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : signal?.aborted ? 'stopped' : (cause?.code ?? cause?.message ?? (error as Error).message);
      // The next request goes to the next server; requests that failed together move it once.
      if (!signal?.aborted && sentTo === this.current) this.current = (this.current + 1) % this.servers.length;
      throw new NoAnswerError(reason, this.servers[sentTo]!);
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw new NoAnswerError('the answer was cut off', this.servers[sentTo]!);
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed };
  }
}

/** An answer worth trying again (the server or a proxy in front of it failing for now). */
export const retryable = (status: number): boolean => status >= 500 || status === 429 || status === 408;

/** The detail of a problem document, made one line, for a log. */
export function problemText(answer: WorkerAnswer): string {
  const body = answer.body as { detail?: unknown; title?: unknown } | undefined;
  const detail = typeof body?.detail === 'string' ? body.detail : typeof body?.title === 'string' ? body.title : '';
  return `${answer.status}${detail ? ` ${detail.slice(0, 300)}` : ''}`;
}
