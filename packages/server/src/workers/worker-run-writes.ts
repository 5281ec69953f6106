import type { RunTokens } from '../domain/run-tokens.js';
import type { RunStatusMessage } from '@agent-runs/core/contract';
import { ConflictError } from '../domain/domain-errors.js';
import type { ArtifactLimits } from '../executors/execution-input.js';
import type { PublishChanges } from '../pull-requests/run-pull-requests.js';
import type { ExecutionJournal } from '../runs/execution-journal.js';
import type { MonotonicClock } from '../runs/monotonic-clock.js';
import type { RunEventLog } from '../runs/run-event-log.js';
import type { RunMoves } from '../runs/run-moves.js';
import type { NewArtifact } from '../store/artifacts/artifact-store.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { RunStore } from '../store/runs/run-store.js';
import type { WorkerHub } from './worker-hub.js';
import type { WorkerFinishRequest, WorkerReportRequest } from './worker-protocol.js';
import type { WorkerGrant } from './worker-service.js';

export interface WorkerRunWritesOptions {
  store: RunStore;
  moves: RunMoves;
  journal: ExecutionJournal;
  events: RunEventLog;
  clock: MonotonicClock;
  hub: WorkerHub;
  limits: ArtifactLimits;
  /** A run went back to QUEUED (a follow-up pending, a poll's answer lost): claimers are told. */
  runQueued: () => void;
  /** What a SUCCEEDED execution's changes become before its end is recorded (pull requests, made here: the worker holds no push credential). */
  publish?: PublishChanges | undefined;
  /** Why a run of this principal must not run on (its daily spend cap reached), asked after each usage report is stored. */
  spendStop?: ((run: RunRecord) => Promise<RunStatusMessage | undefined>) | undefined;
  /** The run tokens this server issues: one minted with each assignment, revoked as its execution ends. */
  runTokens?: RunTokens | undefined;
}

/**
 * What a worker writes of a run it executes: its reports (output, usage, the harness's
 * session) and its finish (state, artifacts, follow-ups taken), each fenced: refused (409)
 * unless the worker still holds the run's lease under the claim it runs it by.
 */
export class WorkerRunWrites {
  /**
   * Finishes being written, by run, execution and claim. Publishing a run's changes (a clone, a
   * push, GitHub's API) can outlast the worker's 30 s wait for an answer, and the worker then
   * sends the same finish again: that one joins the first instead of recording (and pushing) twice.
   */
  private readonly finishing = new Map<string, Promise<void>>();

  constructor(
    private readonly o: WorkerRunWritesOptions,
    /** The lease owner of a connected instance under its token (a 409 when it is not connected). */
    private readonly ownerOf: (grant: WorkerGrant, instanceId: string) => Promise<string>,
  ) {}

  /** The run, while the worker's lease on it under `claim` holds; a 409 (conflict) otherwise. */
  private async fenced(grant: WorkerGrant, runId: string, instanceId: string, claim: string): Promise<{ run: RunRecord; owner: string }> {
    const owner = await this.ownerOf(grant, instanceId);
    const run = await this.o.store.get(runId);
    const holds = run?.state === 'INPROGRESS' && run.startedAt === claim && (await this.o.store.leases.holder(runId)) === owner;
    if (!run || !holds) throw new ConflictError('The lease on this run was given up: stop its agent.', false);
    return { run, owner };
  }

  /** The run, while the worker holds it under `claim` and `execution` is its execution running; a 409 (conflict) otherwise. */
  async fencedExecution(grant: WorkerGrant, runId: string, instanceId: string, claim: string, execution: number): Promise<{ run: RunRecord; owner: string }> {
    const fenced = await this.fenced(grant, runId, instanceId, claim);
    const unended = await this.o.journal.unended(runId);
    if (unended?.execution !== execution) throw new ConflictError(`Execution ${execution} of run ${runId} is not the one running.`, false);
    return fenced;
  }

  async report(grant: WorkerGrant, runId: string, body: WorkerReportRequest): Promise<void> {
    const { events, store, clock } = this.o;
    await this.fenced(grant, runId, body.instance_id, body.claim);
    for (const line of body.output ?? []) events.output(runId, line.stream, line.text);
    const state = body.harness_state;
    if (state && (state.request_usage !== undefined || state.harness_session_id !== undefined)) {
      const updated = await store.setHarnessState(
        runId,
        { ...(state.request_usage ? { requestUsage: state.request_usage } : {}), ...(state.harness_session_id ? { harnessSessionId: state.harness_session_id } : {}) },
        state.request_usage ? clock.now() : undefined,
      );
      if (updated && state.request_usage) {
        await events.runChanged(updated).catch(() => {});
        const capped = await this.o.spendStop?.(updated).catch(() => undefined);
        if (capped) await this.block(runId, body.claim, capped);
      }
    }
  }

  /**
   * Ends a worker's run at its principal's daily spend cap: BLOCKED here under the worker's
   * claim, the worker told to stop its agent (its finish, no longer fenced by a lease, is refused).
   */
  private async block(runId: string, claim: string, message: RunStatusMessage): Promise<void> {
    const { moves, journal, hub, events } = this.o;
    events.output(runId, 'stderr', `[agent-runs] ${message.message}\n`);
    if (!(await moves.finish(runId, { state: 'BLOCKED', statusMessage: message }, claim))) return;
    await journal.endLost(runId, message.message, 'BLOCKED').catch(() => undefined);
    const instanceId = hub.holderOf(runId);
    if (instanceId === undefined) return;
    hub.letGo(runId);
    hub.command(instanceId, { kind: 'cancel', run_id: runId });
  }

  async finish(grant: WorkerGrant, runId: string, body: WorkerFinishRequest): Promise<void> {
    const key = `${runId} ${body.execution} ${body.claim}`;
    const under = this.finishing.get(key);
    if (under) return under;
    const finish = this.writeFinish(grant, runId, body).finally(() => this.finishing.delete(key));
    this.finishing.set(key, finish);
    return finish;
  }

  private async writeFinish(grant: WorkerGrant, runId: string, body: WorkerFinishRequest): Promise<void> {
    const { journal, moves, store, hub } = this.o;
    const { owner } = await this.fencedExecution(grant, runId, body.instance_id, body.claim, body.execution);
    let artifacts = await this.artifacts(runId, body);
    let statusMessage = body.status_message;
    const run = body.state === 'SUCCEEDED' && this.o.publish ? await store.get(runId) : undefined;
    if (run && this.o.publish) {
      const published = await this.o.publish(run, body.execution, { state: 'SUCCEEDED', ...(statusMessage ? { statusMessage } : {}), artifacts });
      artifacts = published.artifacts ?? artifacts;
      statusMessage = published.statusMessage ?? statusMessage;
    }
    await journal.record(runId, { number: body.execution }, {
      state: body.state,
      ...(statusMessage ? { statusMessage } : {}),
      artifacts,
      ...(body.taken_followups ? { takenFollowups: body.taken_followups } : {}),
    });
    if (body.state === 'CANCELLED') await moves.cancel(runId, statusMessage ?? { message: 'The worker stopped the run.' });
    else await moves.finish(runId, { state: body.state, ...(statusMessage ? { statusMessage } : {}) }, body.claim);
    await store.leases.release(owner, [runId]).catch(() => undefined);
    await this.o.runTokens?.revoke(runId);
    hub.letGo(runId);
    hub.slotFreed(body.instance_id);
    if (await journal.requeueIfPending(runId).catch(() => false)) this.o.runQueued();
  }

  /**
   * The finish's artifacts, decoded, within the run's limits: a worker whose own limits are
   * wider may send more. Those past them are left out, and the run's output says which (as
   * the server's own executor says of files it skips), so its owner learns of it.
   */
  private async artifacts(runId: string, body: WorkerFinishRequest): Promise<NewArtifact[]> {
    const { limits } = this.o;
    let used = await this.o.journal.usedBytes(runId);
    const kept: NewArtifact[] = [];
    const sent = body.artifacts ?? [];
    const note = (text: string) => this.o.events.output(runId, 'stderr', `[agent-runs] ${text}\n`);
    if (sent.length > limits.maxArtifactsPerExecution) {
      note(`${sent.length - limits.maxArtifactsPerExecution} artifact(s) from the worker left out: an execution keeps at most ${limits.maxArtifactsPerExecution}.`);
    }
    for (const a of sent.slice(0, limits.maxArtifactsPerExecution)) {
      const content = a.content_base64 !== undefined ? Buffer.from(a.content_base64, 'base64') : undefined;
      const size = content?.length ?? 0;
      if (size > limits.maxFileBytes || used + size > limits.maxRunBytes) {
        const why = size > limits.maxFileBytes ? `over the limit of ${limits.maxFileBytes} bytes per file` : `past the run's ${limits.maxRunBytes} bytes of artifacts`;
        note(`an artifact of ${size} bytes from the worker (${a.type}) left out: ${why}.`);
        continue;
      }
      used += size;
      kept.push({ type: a.type, data: a.data, ...(content ? { content } : {}) });
    }
    return kept;
  }
}
