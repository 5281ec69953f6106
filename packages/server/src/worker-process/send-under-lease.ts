import { setTimeout as sleep } from 'node:timers/promises';
import { Backoff } from '../domain/backoff.js';
import { LEASE_LOST_STATUS } from '../workers/worker-protocol.js';
import { NoAnswerError, problemText, retryable, type WorkerConnection } from './worker-connection.js';

/** What a report, finish or give-back came to: taken, the lease gone (409, or it ran out while retrying), or refused for good. */
export type SendResult = { kind: 'taken' } | { kind: 'lost'; reason: string } | { kind: 'refused'; reason: string; status?: number };

/** What a request sent for a run needs to know of the run's lease. */
export interface LeaseView {
  /** Whether the lease still holds now: nothing is sent once it may have run out. */
  leaseHolds(): boolean;
  /** Whether the run was given up already (409 elsewhere, not renewed). */
  readonly lost: boolean;
}

const RETRY = { firstMs: 100, maxMs: 5_000, jitter: 0.2 };

/**
 * POSTs a run's report or finish until the server answers it: network errors and 5xx are
 * tried again, with growing waits, as long as the run's lease holds; a 409 means the server
 * gave the lease up, and nothing more is sent for the run.
 */
export async function sendUnderLease(connection: WorkerConnection, path: string, body: unknown, lease: LeaseView): Promise<SendResult> {
  const backoff = new Backoff(RETRY);
  for (;;) {
    if (lease.lost) return { kind: 'lost', reason: 'the run was given up' };
    if (!lease.leaseHolds()) return { kind: 'lost', reason: 'its lease ran out before the server answered' };
    try {
      const answer = await connection.post(path, body);
      if (answer.status >= 200 && answer.status < 300) return { kind: 'taken' };
      if (answer.status === LEASE_LOST_STATUS) return { kind: 'lost', reason: `the server gave its lease up (${problemText(answer)})` };
      if (!retryable(answer.status)) return { kind: 'refused', reason: problemText(answer), status: answer.status };
    } catch (error) {
      // No answer (refused, reset, timed out): the next try may get one; the poll loop logs the outage.
      if (!(error instanceof NoAnswerError)) throw error;
    }
    await sleep(backoff.next());
  }
}
