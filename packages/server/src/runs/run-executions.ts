import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ExecutionInput, FollowupMessage } from '../executors/execution-input.js';
import type { Execution, ExecutionOutcome, RunExecutor } from '../executors/run-executor.js';
import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { RunTokens } from '../domain/run-tokens.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { RunStore } from '../store/runs/run-store.js';
import type { PublishChanges } from '../pull-requests/run-pull-requests.js';
import type { ExecutionJournal } from './execution-journal.js';
import type { MonotonicClock } from './monotonic-clock.js';
import type { RunEventLog } from './run-event-log.js';
import { TurnShare } from './turn-share.js';

/** How often a preparation looks again for the result of an execution another server ends. */
const PREVIOUS_POLL_MS = 100;
/**
 * Run endings recorded per turn of the event loop; about a millisecond each on SQLite. An
 * ending's delivery waits for the turns its commit and its send fall in: with 8, a burst of
 * 1,000 endings reached a receiver with p99 65–84 ms, with 16 90–145 ms, in about the same
 * total time (4 halved the median but made the whole burst longer).
 */
const ENDINGS_PER_TURN = 8;

interface Active {
  execution: Execution;
  input: ExecutionInput;
  /** The claim it runs under (the run's `startedAt` as claimed). */
  claim: string | null;
  /** Stopped at its principal's daily spend cap: it ends BLOCKED with this, whatever its agent did. */
  blocked?: RunStatusMessage;
  /** Taken away by a cancel (not by a lost lease, where another execution may have begun). */
  cancelled?: boolean;
  /** Its agent ended before any cancel: what it made is kept even when a cancel comes as its changes are published. */
  agentEnded?: boolean;
}

export interface RunExecutionsOptions {
  store: RunStore;
  executor: RunExecutor;
  clock: MonotonicClock;
  journal: ExecutionJournal;
  events: RunEventLog;
  log: (line: string) => void;
  /** This server's id, kept with each execution it starts. */
  server: string;
  /**
   * On a database shared with other servers: how long a preparation waits, at most, for the
   * result of the run's previous execution started by another one (which may have died).
   * Unset alone: `settled` covers every execution this server started.
   */
  previousBoundMs?: number | undefined;
  /** An execution ended on its own (its outcome is to become the run's state, under the claim it ran, `claim`). */
  ended: (runId: string, outcome: ExecutionOutcome, claim: string | null) => Promise<void>;
  /** An execution was taken away: its slot is free. */
  freed: () => void;
  /** What a SUCCEEDED execution's changes become before its end is recorded (pull requests); bounded by its own timeouts. */
  publish?: PublishChanges | undefined;
  /**
   * Why a run of this principal must not run on now (its daily spend cap reached), asked as a
   * run starts and after each usage update is stored; undefined when it may.
   */
  spendStop?: ((run: RunRecord) => Promise<RunStatusMessage | undefined>) | undefined;
  /** Where agents reach this server, and the tokens each execution is given for it (none: agents get no token). */
  agentApi?: { url: () => string; tokens: RunTokens } | undefined;
}

/**
 * The executions of the runs this server claimed, from preparing to their end: follow-ups
 * that come while one is prepared are handed to it once it starts, and a cancel before it
 * starts means it never does.
 */
export class RunExecutions {
  private readonly active = new Map<string, Active>();
  private readonly endings = new TurnShare(ENDINGS_PER_TURN);
  /** Runs claimed whose execution is being prepared, with their claims; those in `dropped` were cancelled meanwhile. */
  private readonly preparing = new Map<string, string | null>();
  private readonly dropped = new Set<string>();
  /** Follow-ups that came while the run's execution was prepared: handed to it once it starts. */
  private readonly early = new Map<string, FollowupMessage[]>();
  /** Executions taken away whose process group is being ended: they hold their slot until gone and recorded. */
  private readonly stopping = new Map<string, Promise<void>>();
  /**
   * Preparations under way: a run requeued by a follow-up while its previous execution is still
   * prepared here is claimed again only once that one is over (it may give back follow-ups).
   */
  private readonly preparations = new Map<string, Promise<void>>();

  constructor(private readonly options: RunExecutionsOptions) {}

  /** How many executions run now, or are being stopped (those being prepared not counted). */
  get running(): number {
    return this.active.size + this.stopping.size;
  }

  /** Resolves once the run's execution taken away here is gone and its stop recorded (at once if none is). */
  settled(runId: string): Promise<void> {
    return this.stopping.get(runId) ?? Promise.resolve();
  }

  /** Whether this server executes the run now (or prepares to). */
  has(runId: string): boolean {
    return this.active.has(runId) || this.preparing.has(runId);
  }

  /** The runs this server executes now. */
  runningIds(): string[] {
    return [...this.active.keys()];
  }

  /** The runs executed or being prepared. */
  allIds(): string[] {
    return [...this.active.keys(), ...this.preparing.keys()];
  }

  /** The claim the run is executed or prepared under here, if it is. */
  claimOf(runId: string): string | null | undefined {
    return this.active.get(runId)?.claim ?? this.preparing.get(runId);
  }

  /** Hands a follow-up to the run's execution in progress; false when none can take it now. */
  deliver(runId: string, followup: FollowupMessage): boolean {
    if (this.preparing.has(runId)) {
      this.early.set(runId, [...(this.early.get(runId) ?? []), followup]);
      return true;
    }
    const active = this.active.get(runId);
    if (!active?.execution.deliver) return false;
    try {
      return active.execution.deliver(followup);
    } catch (error) {
      this.options.log(`Could not hand a follow-up to run ${runId}: ${(error as Error).message}`);
      return false;
    }
  }

  /**
   * Takes the work of an active run away: stops it without recording its outcome as the run's
   * state. `cancelled`: the run was cancelled (what an execution whose agent had ended made is kept).
   */
  async abandon(runId: string, cancelled = false): Promise<boolean> {
    if (this.preparing.has(runId)) {
      // Not started yet: it is not started at all.
      this.dropped.add(runId);
      return true;
    }
    const active = this.active.get(runId);
    if (!active) return false;
    active.cancelled = cancelled;
    this.active.delete(runId);
    void this.options.agentApi?.tokens.revoke(runId);
    const stop = (async () => {
      try {
        await active.execution.cancel();
      } catch (error) {
        this.options.log(`Could not stop the work of run ${runId}: ${(error as Error).message}`);
      }
      // The conversation still says the execution ended, so the next one gets a number (and files) of its own.
      await this.stopped(runId, active.input);
    })();
    this.stopping.set(runId, stop);
    try {
      await stop;
    } finally {
      // The slot is free only now: the process group is gone and the stop recorded.
      this.stopping.delete(runId);
      this.options.freed();
    }
    return true;
  }

  /** Prepares the claimed run's execution and starts it; resolves once it runs (or could not start). */
  async start(run: RunRecord): Promise<void> {
    // Bounded by that preparation's own bound on the wait for a previous execution.
    while (this.preparations.has(run.id)) await this.preparations.get(run.id)!.catch(() => undefined);
    this.preparing.set(run.id, run.startedAt);
    const preparation = this.prepareAndStart(run).finally(() => {
      this.preparing.delete(run.id);
      this.dropped.delete(run.id);
      this.early.delete(run.id);
      this.preparations.delete(run.id);
    });
    this.preparations.set(run.id, preparation);
    await preparation;
  }

  private async prepareAndStart(run: RunRecord): Promise<void> {
    const { store, executor, clock, journal, events, log } = this.options;
    let execution: Execution;
    let input: ExecutionInput | undefined;
    let stillClaimed: boolean;
    try {
      await this.previousEnded(run.id);
      if (this.dropped.has(run.id)) return;
      // A claim overtaken before it was prepared (cancelled, requeued and claimed again, here or
      // on another server) prepares nothing: no follow-up taken, no execution numbered.
      input = await journal.prepare(run, this.options.server);
      if (!input) return;
      // A cancel that came after the claim but before the run was listed as preparing found it
      // not active here: the store tells (after which `dropped` holds). So does a claim
      // overtaken while it was prepared.
      stillClaimed = await this.stillClaimed(run);
    } catch (error) {
      log(`Could not prepare run ${run.id}: ${(error as Error).message}`);
      // A start kept gets its result, so the next execution does not wait for one.
      if (input) await journal.endUnstarted(run.id, input.number, 'ERROR', 'The execution could not start.').catch(() => {});
      // Written as an execution's end is: kept and written again while the store refuses it
      // (the database restarting, say), so the run does not stay INPROGRESS with nothing running it.
      await this.options.ended(
        run.id,
        { state: 'ERROR', statusMessage: { message: `The run could not be prepared: ${(error as Error).message}`, error_code: 'internal_error', retryable: true } },
        run.startedAt,
      );
      return;
    }
    // Cancelled while it was prepared (and perhaps requeued by a follow-up since): the
    // conversation ends this execution, and what it was given goes to the next one.
    const unstarted = (number: number) =>
      this.options.journal.endUnstarted(run.id, number).catch((error: unknown) => log(`Could not record the stop of run ${run.id}: ${(error as Error).message}`));
    if (this.dropped.has(run.id) || !stillClaimed) return unstarted(input.number);
    // A principal already at its daily spend cap starts no agent: the run is BLOCKED as it would be at its first usage update.
    const capped = await this.spendStop(run);
    if (capped) {
      void this.finish(run, undefined, input, { state: 'BLOCKED', statusMessage: capped });
      return;
    }
    // A follow-up's output goes on after what earlier executions printed, in the same log.
    if (input.number > 1) events.output(run.id, 'stdout', `[agent-runs] Execution ${input.number}, answering ${input.followups.length || 'no'} follow-up(s).\n`);
    // The agent's run token lives as long as this execution: revoked however it ends.
    const api = this.options.agentApi;
    const agentApi = api ? { url: api.url(), token: await api.tokens.mint(run.id, run.creator) } : undefined;
    // A cancel during the waits since the store was asked (the spend cap, the token's write, a
    // round trip each on PostgreSQL) found the run preparing and dropped it: no agent starts, so
    // none holds a slot for a run that ended.
    if (this.dropped.has(run.id)) {
      void api?.tokens.revoke(run.id);
      return unstarted(input.number);
    }
    try {
      execution = executor.start({
        run,
        input,
        ...(agentApi ? { agentApi } : {}),
        onOutput: (text, stream = 'stdout') => events.output(run.id, stream, text),
        // A harness's usage and session are kept as it reports them, and watchers see the run change.
        onHarnessState: async (state) => {
          // New usage is a change of the run (its updated_at moves), so its streams carry it.
          const updated = await store.setHarnessState(run.id, state, state.requestUsage ? clock.now() : undefined).catch((error: unknown) => {
            log(`Could not record the harness state of run ${run.id}: ${(error as Error).message}`);
            return undefined;
          });
          if (updated && state.requestUsage) {
            await events.runChanged(updated).catch(() => {});
            // The spend this update added is in the principal's day now: at the cap, the agent stops.
            const capped = await this.spendStop(updated);
            if (capped) this.block(run.id, capped);
          }
        },
      });
    } catch (error) {
      void api?.tokens.revoke(run.id);
      void this.finish(run, undefined, input, {
        state: 'ERROR',
        statusMessage: { message: `The ${executor.name} executor could not start: ${(error as Error).message}`, error_code: 'internal_error', retryable: true },
      });
      return;
    }
    const active: Active = { execution, input, claim: run.startedAt };
    this.active.set(run.id, active);
    this.preparing.delete(run.id);
    // Those the preparation already read into the execution's input are not sent twice.
    const given = new Set(input.followups.map((f) => f.id));
    for (const followup of this.early.get(run.id) ?? []) if (!given.has(followup.id)) this.deliver(run.id, followup);
    if (execution.processGroup) {
      store.setProcessGroup(run.id, execution.processGroup).catch((error: unknown) => {
        log(`Could not record the process group of run ${run.id}: ${(error as Error).message}`);
      });
    }
    const publish = this.options.publish;
    execution.done.then(
      async (outcome) => {
        if (this.active.get(run.id) !== active) return this.finish(run, active, input, outcome);
        active.agentEnded = true;
        return this.finish(run, active, input, publish ? await publish(run, input.number, outcome) : outcome);
      },
      (error: unknown) =>
        this.finish(run, active, input, {
          state: 'ERROR',
          statusMessage: { message: `The ${executor.name} executor failed: ${(error as Error).message}`, error_code: 'internal_error', retryable: true },
        }),
    );
  }

  /** The principal's daily spend cap, asked without failing the run: a store that cannot answer stops nothing. */
  private async spendStop(run: RunRecord): Promise<RunStatusMessage | undefined> {
    return this.options.spendStop?.(run).catch((error: unknown) => {
      this.options.log(`Could not read the daily spend of run ${run.id}'s principal: ${(error as Error).message}`);
      return undefined;
    });
  }

  /** Stops the run's execution now; it ends BLOCKED with `message` (finish() sees to it), as a run budget stops one. */
  private block(runId: string, message: RunStatusMessage): void {
    const active = this.active.get(runId);
    if (!active || active.blocked) return;
    active.blocked = message;
    this.options.events.output(runId, 'stderr', `[agent-runs] ${message.message}\n`);
    active.execution.cancel().catch((error: unknown) => this.options.log(`Could not stop run ${runId} at its daily spend cap: ${(error as Error).message}`));
  }

  /** Whether the run is INPROGRESS under this claim still (a claim's `startedAt` names it). */
  private async stillClaimed(run: RunRecord): Promise<boolean> {
    const now = await this.options.store.get(run.id);
    return now?.state === 'INPROGRESS' && now.startedAt === run.startedAt;
  }

  /**
   * Resolves once the run's previous execution is gone and its result recorded, whichever
   * server started it: a follow-up may requeue a run whose cancelled execution is still being
   * ended, here or elsewhere. Another server's is waited for at most `previousBoundMs`.
   */
  private async previousEnded(runId: string): Promise<void> {
    await this.settled(runId);
    const { previousBoundMs: bound, journal, server, log } = this.options;
    if (bound === undefined) return;
    const deadline = performance.now() + bound;
    for (;;) {
      const last = await journal.unended(runId);
      // Started here, `settled` saw it end: a result that could not be written is not waited for.
      if (!last || last.server === server) return;
      if (performance.now() >= deadline) {
        log(`Run ${runId}: execution ${last.execution}, started by server ${last.server}, has no result after ${bound} ms; the next one starts anyway.`);
        return;
      }
      await sleep(PREVIOUS_POLL_MS);
    }
  }

  private async finish(run: RunRecord, active: Active | undefined, input: ExecutionInput, outcome: ExecutionOutcome): Promise<void> {
    const runId = run.id;
    // Many runs ending at once are recorded a few per turn, with requests and deliveries between.
    await this.endings.take();
    // A cancelled or abandoned run was already taken out; its late outcome is ignored, but for
    // what the execution made: a cancel that came while its changes were being published finds
    // them pushed and the pull request opened, which the run must still point to.
    if (active && this.active.get(runId) !== active) {
      if (outcome.artifacts?.length && active.cancelled && active.agentEnded) {
        await this.options.journal.keep(runId, outcome.artifacts).catch((error: unknown) => this.options.log(`Could not keep what cancelled run ${runId} made: ${(error as Error).message}`));
      }
      return;
    }
    this.active.delete(runId);
    // Stopped at the daily spend cap: its agent's own end (cancelled) is not the run's.
    if (active?.blocked) outcome = { ...outcome, state: 'BLOCKED', statusMessage: active.blocked };
    void this.options.agentApi?.tokens.revoke(runId);
    try {
      await this.options.journal.record(runId, input, outcome);
    } catch (error) {
      // What it made is lost, but its state must still be recorded.
      this.options.log(`Could not record what run ${runId} made: ${(error as Error).message}`);
    }
    await this.options.ended(runId, outcome, run.startedAt);
  }

  /** Ends a stopped execution in the conversation. */
  private async stopped(runId: string, input: ExecutionInput): Promise<void> {
    await this.options.journal
      .record(runId, input, { state: 'CANCELLED', statusMessage: { message: 'The execution was stopped.' } })
      .catch((error: unknown) => this.options.log(`Could not record the stop of run ${runId}: ${(error as Error).message}`));
  }
}
