import { hash, randomBytes } from 'node:crypto';
import type { RunCreatorInfo } from '@agent-runs/core/contract';

/** What every run token starts with: tells it from an API key at a glance (and to secret scanners). */
export const RUN_TOKEN_PREFIX = 'art_';

/** What a valid run token stands for: its run, and the principal that run belongs to. */
export interface RunTokenGrant {
  runId: string;
  /** The run's creator: a request with the token acts as it, within the token's scope. */
  creator: RunCreatorInfo;
}

const digest = (text: string) => hash('sha256', text, 'hex');

/**
 * The run-scoped tokens of the executions this server runs: minted as an execution starts,
 * revoked as it ends. Only each token's SHA-256 is kept, so a lookup's time says nothing of
 * a wrong one and no token can be read back from memory dumps of this map.
 */
export class RunTokens {
  private readonly grants = new Map<string, RunTokenGrant>();
  /** Each run's current token digest, so one run holds at most one token at a time. */
  private readonly byRun = new Map<string, string>();

  /** A fresh token for `runId` (32 random bytes); one the run held before stops working. */
  mint(runId: string, creator: RunCreatorInfo): string {
    this.revoke(runId);
    const token = `${RUN_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const key = digest(token);
    this.grants.set(key, { runId, creator });
    this.byRun.set(runId, key);
    return token;
  }

  /** The run's token stops working (its execution ended or was stopped). */
  revoke(runId: string): void {
    const key = this.byRun.get(runId);
    if (key === undefined) return;
    this.byRun.delete(runId);
    this.grants.delete(key);
  }

  /** The grant of a token this server issued and has not revoked. */
  grantOf(token: string): RunTokenGrant | undefined {
    return this.grants.get(digest(token));
  }
}

/** Whether a bearer credential is a run token (by its prefix), valid or not. */
export function isRunToken(credential: string): boolean {
  return credential.startsWith(RUN_TOKEN_PREFIX);
}
