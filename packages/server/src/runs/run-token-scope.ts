import { isTerminalState } from '@agent-runs/core/contract';
import { CredentialEndedError, NotFoundError, OutOfScopeError } from '../domain/domain-errors.js';
import type { RunTokenGrant } from '../domain/run-tokens.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { RunService } from './run-service.js';

/** What a run token may do, said in every refusal so an agent knows where the edge is. */
export const RUN_TOKEN_SCOPE =
  'a run token may create children of its run, read its run, parent, children and siblings, message them and poll their events, read its own inbox, and cancel its children';

/** Whether `target` is `holder` itself, its parent, one of its children or one of its siblings. */
export function inFamily(holder: RunRecord, target: RunRecord): boolean {
  if (target.id === holder.id || target.id === holder.parentRunId || target.parentRunId === holder.id) return true;
  return holder.parentRunId !== undefined && holder.parentRunId !== null && target.parentRunId === holder.parentRunId;
}

/**
 * The rules of a run token: acting as its run's principal, within its run's family only,
 * and only while its run has not ended. Runs of another principal stay as unknown as to an
 * API key of that principal (404); runs of the same principal outside the family are a 403.
 */
export class RunTokenScope {
  constructor(private readonly runs: RunService) {}

  /** The token's run, while it runs; a token whose run has ended is refused as no credential (401). */
  async holder(grant: RunTokenGrant): Promise<RunRecord> {
    // Only a missing run is a dead token: a store that cannot answer stays a 503.
    const run = await this.runs.getOrThrow(grant.runId, grant.creator).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (!run || isTerminalState(run.state)) throw new CredentialEndedError('The run token is no longer valid: its run has ended.');
    return run;
  }

  /** A run of the token's family (itself, its parent, children, siblings). */
  async family(grant: RunTokenGrant, runId: string): Promise<RunRecord> {
    const holder = await this.holder(grant);
    const target = await this.runs.getOrThrow(runId, grant.creator);
    if (!inFamily(holder, target)) throw new OutOfScopeError(`Run ${runId} is outside this run token's reach: ${RUN_TOKEN_SCOPE}.`);
    return target;
  }

  /** A child of the token's run. */
  async child(grant: RunTokenGrant, runId: string): Promise<RunRecord> {
    await this.holder(grant);
    const target = await this.runs.getOrThrow(runId, grant.creator);
    if (target.parentRunId !== grant.runId) throw new OutOfScopeError(`Run ${runId} is not a child of this run token's run: ${RUN_TOKEN_SCOPE}.`);
    return target;
  }

  /** The token's own run, by the id a request named. */
  async own(grant: RunTokenGrant, runId: string): Promise<RunRecord> {
    const holder = await this.holder(grant);
    if (runId !== holder.id) throw new OutOfScopeError(`Run ${runId} is not this run token's run: ${RUN_TOKEN_SCOPE}.`);
    return holder;
  }

  /**
   * A create's body as a run token sends it: its parent is always the token's run (set when
   * left out; another one refused), so an agent's children hang under it and nowhere else.
   */
  async childRequest(grant: RunTokenGrant, body: unknown): Promise<unknown> {
    await this.holder(grant);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const given = (body as Record<string, unknown>).parent_run_id;
    if (given !== undefined && given !== grant.runId) {
      throw new OutOfScopeError(`parent_run_id must be this run token's run (${grant.runId}) or left out: ${RUN_TOKEN_SCOPE}.`);
    }
    // Continuing a conversation would hand the child (and so the agent) the history of runs outside the family.
    if ((body as Record<string, unknown>).conversation_id !== undefined) {
      throw new OutOfScopeError(`conversation_id cannot be given with a run token: a child starts a conversation of its own (${RUN_TOKEN_SCOPE}).`);
    }
    return { ...body, parent_run_id: grant.runId };
  }

  /** A send's body as a run token sends it: from its run (set when left out; another sender refused), to runs of its family. */
  async sendRequest(grant: RunTokenGrant, body: unknown): Promise<unknown> {
    await this.holder(grant);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const { sender_run_id: sender, to } = body as Record<string, unknown>;
    if (sender !== undefined && sender !== grant.runId) {
      throw new OutOfScopeError(`sender_run_id must be this run token's run (${grant.runId}) or left out: ${RUN_TOKEN_SCOPE}.`);
    }
    if (Array.isArray(to)) for (const id of to) if (typeof id === 'string') await this.family(grant, id);
    return { ...body, sender_run_id: grant.runId };
  }
}
