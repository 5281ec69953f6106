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

/** A token as the database keeps it: its SHA-256 (hex), never the token. */
export interface StoredRunToken {
  digest: string;
  runId: string;
  creator: RunCreatorInfo;
  createdAt: string;
}

/** Where the servers of one database keep the tokens in use (the store's `run_tokens` table). */
export interface RunTokenRecords {
  /** Keeps the token, in place of any other of its run. */
  put(token: StoredRunToken): Promise<void>;
  get(digest: string): Promise<StoredRunToken | undefined>;
  /** The run's token stops working on every server. */
  deleteRun(runId: string): Promise<void>;
}

/**
 * The run-scoped tokens of the executions this server runs: minted as an execution starts,
 * revoked as it ends. Only each token's SHA-256 is kept, so a lookup's time says nothing of
 * a wrong one and no token can be read back from memory dumps of this map. With `records`
 * (the database's), each is kept there too, and a token this server did not mint (another
 * server of a shared database did) is looked up there: the map is the cache in front of it.
 */
export class RunTokens {
  private readonly grants = new Map<string, RunTokenGrant>();
  /** Each run's current token digest, so one run holds at most one token at a time. */
  private readonly byRun = new Map<string, string>();

  constructor(
    private readonly records?: RunTokenRecords,
    /** Told (with the run, never the token) when the database could not keep or delete one. */
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /**
   * A fresh token for `runId` (32 random bytes); one the run held before stops working. A
   * database that cannot keep it leaves it to this server alone (the agent is given this
   * server's URL), rather than failing the execution.
   */
  async mint(runId: string, creator: RunCreatorInfo): Promise<string> {
    this.forget(runId);
    const token = `${RUN_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const key = digest(token);
    this.grants.set(key, { runId, creator });
    this.byRun.set(runId, key);
    await this.records?.put({ digest: key, runId, creator, createdAt: new Date().toISOString() }).catch((error: unknown) => {
      this.log(`Could not keep the run token of run ${runId} in the database (${(error as Error).message}); only this server honours it.`);
    });
    return token;
  }

  /**
   * The run's token stops working (its execution ended or was stopped), here and in the
   * database (where the server that minted it may be another). A database that cannot answer
   * leaves a row the scope still refuses once the run has ended.
   */
  async revoke(runId: string): Promise<void> {
    this.forget(runId);
    await this.records?.deleteRun(runId).catch((error: unknown) => {
      this.log(`Could not delete the run token of run ${runId} from the database (${(error as Error).message}); it is refused all the same once the run has ended.`);
    });
  }

  private forget(runId: string): void {
    const key = this.byRun.get(runId);
    if (key === undefined) return;
    this.byRun.delete(runId);
    this.grants.delete(key);
  }

  /** The grant of a token this server issued and has not revoked, else one another server of the database did. */
  async grantOf(token: string): Promise<RunTokenGrant | undefined> {
    const key = digest(token);
    const mine = this.grants.get(key);
    if (mine || !this.records) return mine;
    const stored = await this.records.get(key);
    return stored ? { runId: stored.runId, creator: stored.creator } : undefined;
  }
}

/** Whether a bearer credential is a run token (by its prefix), valid or not. */
export function isRunToken(credential: string): boolean {
  return credential.startsWith(RUN_TOKEN_PREFIX);
}
