import { isTerminalState, RunFollowupRequestSchema, type RunBudget, type RunCreatorInfo, type RunFollowupResponse } from '@agent-runs/core/contract';
import { InvalidInputError } from '../domain/domain-errors.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { RunExecutor } from '../executors/run-executor.js';
import { invalidField, invalidInput, invalidLines } from '../domain/invalid-request-input.js';
import type { ConversationStore } from '../store/conversations/conversation-store.js';
import type { RunStore } from '../store/runs/run-store.js';
import { toFollowupMessage, type ExecutionJournal } from './execution-journal.js';
import type { MonotonicClock } from './monotonic-clock.js';
import { NO_PEERS, type Peers } from './peers.js';
import type { RunEventLog } from './run-event-log.js';
import type { RunQueue } from './run-queue.js';
import { NO_REMOTE_RUNS, type RemoteRuns } from './remote-runs.js';
import type { RunService } from './run-service.js';
import type { RunMoves } from './run-moves.js';

/**
 * Follow-ups, accepted whatever the run's state and routed by it: a run not started yet
 * starts with the message in its conversation; a running one gets it in its execution's
 * inbox (and, if the execution ends without taking it, a next execution answers it); an
 * ended run, CANCELLED included, goes back to QUEUED for a new execution in the same
 * working directory.
 */
export class FollowupService {
  constructor(
    private readonly store: RunStore,
    private readonly moves: RunMoves,
    private readonly runs: RunService,
    private readonly conversations: ConversationStore,
    private readonly queue: RunQueue,
    private readonly journal: ExecutionJournal,
    private readonly executor: RunExecutor,
    private readonly clock: MonotonicClock,
    /** The run's event stream: each follow-up, and the run's change. */
    private readonly events?: RunEventLog,
    private readonly peers: Peers = NO_PEERS,
    /** Self-hosted workers: a follow-up to a run one executes is a command to it. */
    private readonly remote: RemoteRuns = NO_REMOTE_RUNS,
  ) {}

  /** A follow-up another server accepted for a run this one executes: handed to the agent. */
  async deliverHere(runId: string, followupId: string): Promise<void> {
    const here = this.queue.isActive(runId);
    const followup = (await this.conversations.pendingFollowups(runId)).find((m) => m.id === followupId);
    if (!followup) return;
    if (here) this.queue.deliver(runId, toFollowupMessage(followup));
    else this.remote.deliver(runId, toFollowupMessage(followup));
  }

  /**
   * A follow-up's new caps (those it names; the run's others stay), held to the run's
   * principal's and environment's maxima and kept before its message is, so the execution
   * the message starts runs under them (one already running keeps the caps it started with).
   * A cap on usage the run's executor cannot report is refused as at create.
   */
  private async raiseBudget(run: RunRecord, budget: RunBudget): Promise<void> {
    this.runs.budgets.checkRaise(budget, run.creator.uid, run.agentConfig.environment_id, 'budget');
    const issues = (this.executor.checkConfig?.({ ...run.agentConfig, budget }, run.creator.uid) ?? []).filter((issue) => issue.path.startsWith('agent_config.budget.'));
    if (issues.length) throw new InvalidInputError(issues.map((issue) => ({ ...issue, path: issue.path.slice('agent_config.'.length) })));
    // The caps it names replace the run's; those it leaves out stay.
    await this.store.setBudget(run.id, { ...run.agentConfig.budget, ...budget });
  }

  /** With an `Idempotency-Key` used before for this run, the follow-up is not added again (a retry after a lost answer). */
  async submit(runId: string, body: unknown, caller: RunCreatorInfo, idempotencyKey?: string): Promise<RunFollowupResponse> {
    if (body === undefined) throw invalidField('body', 'a JSON object with a message is required.');
    const parsed = RunFollowupRequestSchema.safeParse(body);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const { message, mode, budget } = parsed.data;
    const problems = this.executor.check?.(message, 'message') ?? [];
    if (problems.length) throw invalidLines(problems);
    const before = await this.runs.getOrThrow(runId, caller);
    // A follow-up to an ended run queues it again, as a create would: the quotas hold; one to a live run adds no run.
    if (isTerminalState(before.state)) await this.runs.quotas.check(before.creator.uid);
    else await this.runs.quotas.checkSpend(before.creator.uid);
    if (budget) await this.raiseBudget(before, budget);

    const added = await this.conversations.addFollowup(runId, { text: message, mode: mode ?? null, at: this.clock.now(), idempotencyKey });
    const followup = added.message;
    if (!added.replayed) this.events?.emit(runId, 'followup', { followup_id: followup.id, message: followup.text, mode: followup.mode, created_at: followup.createdAt });
    if (added.replayed) return { run_id: runId, state: (await this.store.get(runId))!.state, followup_id: followup.id };
    // The state is read after the message is kept, so a run ending meanwhile still finds it pending.
    const run = (await this.store.get(runId))!;
    let state = run.state;
    if (isTerminalState(run.state)) {
      // A cancelled execution still being ended here is gone and recorded before the next may
      // be claimed, here or by another server (the executor bounds this by its kill grace).
      await this.queue.settled(runId);
      // Answered with the state the follow-up moved it to; the queue may start it at once.
      if (await this.journal.requeue(runId)) {
        state = 'QUEUED';
        this.queue.runQueued();
      } else {
        state = (await this.store.get(runId))?.state ?? run.state;
      }
    } else {
      if (run.state === 'INPROGRESS') {
        // Executed here, or by another server, which is told; if neither hands it over, the next execution answers it.
        if (this.queue.isActive(runId)) this.queue.deliver(runId, toFollowupMessage(followup));
        else if (this.remote.deliver(runId, toFollowupMessage(followup))) {
          // Queued for the worker holding it here: delivered at its next poll.
        } else this.peers.publish({ kind: 'followup', runId, followupId: followup.id });
      }
      // The run changed: its updated_at moves, its state stays.
      await this.moves.touch(runId, run.state);
    }
    return { run_id: runId, state, followup_id: followup.id };
  }
}
