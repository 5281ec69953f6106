import type { FollowupMessage } from '../../executors/execution-input.js';

/** Follow-ups one run's entrypoint has not fetched yet, at most. */
export const MAX_QUEUED_FOLLOWUPS = 50;
/** Their JSON, in bytes, at most: one answer holds them all, well under the relay's body limit. */
export const MAX_QUEUED_FOLLOWUP_BYTES = 2 * 1024 * 1024;
/** How long a fetch with nothing to give waits for a follow-up before it is answered empty (under the entrypoint's 30 s request timeout). */
export const FOLLOWUP_WAIT_MS = 20_000;

/** Why a follow-up was not queued: said in the worker's log. */
export type QueueRefusal = 'over' | 'full';

/**
 * The follow-ups sent to a run while its Job (or dispatched entrypoint) runs, waiting for its
 * entrypoint to fetch them (`GET /runs/{runId}/followups`). One is dropped only once the
 * entrypoint names it as the last it has (`?after=<its id>`), so an answer lost on its way is
 * given again (the entrypoint skips one it has). Bounded: beyond the bound a follow-up is
 * refused, and the server keeps it for the run's next execution rather than losing it here.
 */
export class FollowupQueue {
  private readonly queued: { followup: FollowupMessage; bytes: number }[] = [];
  private bytes = 0;
  private closed = false;
  private readonly waiters = new Set<() => void>();

  /** Queues it; the reason it was not, when it was not. */
  offer(followup: FollowupMessage): QueueRefusal | undefined {
    if (this.closed) return 'over';
    const bytes = Buffer.byteLength(JSON.stringify(followup));
    if (this.queued.length >= MAX_QUEUED_FOLLOWUPS || this.bytes + bytes > MAX_QUEUED_FOLLOWUP_BYTES) return 'full';
    this.queued.push({ followup, bytes });
    this.bytes += bytes;
    this.wake();
    return undefined;
  }

  /**
   * Drops those up to `after` (the last one the entrypoint has; one not queued drops none),
   * then gives the rest, waiting up to `waitMs` (or until `gone` aborts) for one to come.
   * `closed` once the execution is over here.
   */
  async take(after: string | undefined, waitMs: number, gone: AbortSignal): Promise<FollowupMessage[] | 'closed'> {
    const at = after === undefined ? -1 : this.queued.findIndex((q) => q.followup.id === after);
    for (const dropped of this.queued.splice(0, at + 1)) this.bytes -= dropped.bytes;
    if (!this.queued.length && !this.closed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          gone.removeEventListener('abort', done);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, waitMs);
        // A worker shutting down does not wait on a fetch nobody will answer.
        timer.unref();
        gone.addEventListener('abort', done);
        this.waiters.add(done);
      });
    }
    if (this.closed) return 'closed';
    return this.queued.map((q) => q.followup);
  }

  /** The execution is over: waiting fetches are answered (410), nothing more is queued. */
  close(): void {
    this.closed = true;
    this.queued.length = 0;
    this.bytes = 0;
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/**
 * An execution's `deliver` for a run whose agent runs elsewhere: the follow-up queued for its
 * entrypoint, said in the worker's log either way. False when not queued: the server keeps it
 * for the run's next execution.
 */
export function deliverThrough(queue: FollowupQueue, runId: string, log: (line: string) => void): (followup: FollowupMessage) => boolean {
  return (followup) => {
    const refused = queue.offer(followup);
    if (refused === 'full') {
      log(`Run ${runId}: follow-up ${followup.id} is not queued for its entrypoint: ${MAX_QUEUED_FOLLOWUPS} follow-ups or ${MAX_QUEUED_FOLLOWUP_BYTES} bytes wait for it already; the run's next execution answers it.`);
    } else if (!refused) log(`Run ${runId}: follow-up ${followup.id} queued for its entrypoint.`);
    return refused === undefined;
  };
}

/** What an execution's end hands back of the follow-ups its agent said it took. */
export function takenIn(end: { taken_followups?: string[] | undefined }): { takenFollowups?: string[] } {
  return end.taken_followups?.length ? { takenFollowups: end.taken_followups } : {};
}
