import { isTerminalState } from '@agent-runs/core/contract';
import type { ArtifactLimits, ExecutionInput, FollowupMessage } from '../executors/execution-input.js';
import type { ExecutionOutcome } from '../executors/run-executor.js';
import type { ArtifactStore } from '../store/artifacts/artifact-store.js';
import type { ConversationStore, RunMessage } from '../store/conversations/conversation-store.js';
import type { RunAttachmentSource } from '../store/runs/run-attachments.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { RunStore } from '../store/runs/run-store.js';
import { conversationEntries } from './conversation-entries.js';
import type { RunMoves } from './run-moves.js';
import type { MonotonicClock } from './monotonic-clock.js';
import type { RunEventLog } from './run-event-log.js';
import { toArtifactItem } from './to-artifact.js';

export function toFollowupMessage(m: RunMessage): FollowupMessage {
  return { id: m.id, message: m.text, mode: m.mode, created_at: m.createdAt };
}

/**
 * What executions start from and leave behind: the conversation, the follow-ups each
 * answers, the artifacts each made. The queue calls it around every execution.
 */
export class ExecutionJournal {
  constructor(
    private readonly store: RunStore,
    private readonly moves: RunMoves,
    private readonly conversations: ConversationStore,
    private readonly artifacts: ArtifactStore,
    private readonly attachments: RunAttachmentSource,
    private readonly limits: ArtifactLimits,
    private readonly clock: MonotonicClock,
    /** The run's event stream: artifacts as they are kept. */
    private readonly events?: RunEventLog,
  ) {}

  /**
   * The next execution's input, while the run is still INPROGRESS under `run`'s claim
   * (undefined otherwise, nothing changed): the follow-ups waiting now become this
   * execution's, and its start is kept, by `server`, so that it has a number of its own
   * whoever ends it, and the next execution (on any server) can wait for its result.
   */
  async prepare(run: RunRecord, server: string): Promise<ExecutionInput | undefined> {
    const begun = await this.conversations.beginExecution(run.id, { claim: run.startedAt, server, at: this.clock.now() });
    if (!begun) return undefined;
    try {
      return {
        number: begun.execution,
        followups: begun.followups.map(toFollowupMessage),
        conversation: conversationEntries(run, await this.conversations.list(run.id)),
        attachments: await this.attachments.list(run.id),
        limits: this.limits,
        usedBytes: await this.artifacts.runBytes(run.id),
      };
    } catch (error) {
      // Its start is kept: it gets a result, and what it was given goes to the next execution.
      await this.endUnstarted(run.id, begun.execution, 'ERROR', 'The execution could not start.').catch(() => undefined);
      throw error;
    }
  }

  /**
   * Ends in the conversation the run's last execution, when it has no result: its server died
   * with it (its lease ran out), so none will come, and the next execution need not wait for one.
   */
  async endLost(runId: string, text: string, state: 'FAILED' | 'CANCELLED' | 'BLOCKED' = 'FAILED'): Promise<void> {
    const last = await this.conversations.unended(runId);
    if (last) await this.conversations.addResult(runId, { execution: last.execution, state, text, at: this.clock.now() });
  }

  /** Bytes of files the run's executions keep so far (an execution's artifacts must fit what is left). */
  usedBytes(runId: string): Promise<number> {
    return this.artifacts.runBytes(runId);
  }

  /** The run's last execution started, when its result is not recorded yet. */
  unended(runId: string): Promise<{ execution: number; server: string } | undefined> {
    return this.conversations.unended(runId);
  }

  /** The run's last execution started, ended or not, and who started it (a worker's lease owner, or a server): where its working directory is. */
  lastStart(runId: string): Promise<{ execution: number; server: string } | undefined> {
    return this.conversations.lastStart(runId);
  }

  /** When the oldest follow-up no execution has taken yet was sent (undefined when none waits). */
  async waitingSince(runId: string): Promise<string | undefined> {
    return (await this.conversations.pendingFollowups(runId))[0]?.createdAt;
  }

  /** The `changes.patch` files the run's executions left, oldest first: applied in order to the checkout, they make its working directory again. */
  async changesPatches(runId: string): Promise<Buffer[]> {
    const patches: Buffer[] = [];
    for (const artifact of await this.artifacts.listByRun(runId)) {
      if (artifact.type !== 'FILE' || artifact.data['filename'] !== 'changes.patch') continue;
      const content = await this.artifacts.content(artifact.uid);
      if (content?.length) patches.push(content);
    }
    return patches;
  }

  /** Keeps what an execution made, without its result (a run cancelled after its agent ended: the cancel is its result). */
  async keep(runId: string, artifacts: NonNullable<ExecutionOutcome['artifacts']>): Promise<void> {
    const added = await this.artifacts.add(runId, artifacts, this.clock.now());
    for (const artifact of added) this.events?.emit(runId, 'artifact', toArtifactItem(artifact));
  }

  /** Keeps what the execution made and its result in the conversation. */
  async record(
    runId: string,
    input: Pick<ExecutionInput, 'number'>,
    outcome: Omit<ExecutionOutcome, 'state'> & { state: ExecutionOutcome['state'] | 'CANCELLED' },
  ): Promise<void> {
    const at = this.clock.now();
    if (outcome.artifacts?.length) await this.keep(runId, outcome.artifacts);
    if (outcome.takenFollowups?.length) await this.conversations.assign(runId, outcome.takenFollowups, input.number);
    const text = outcome.statusMessage?.message ?? `The run ended ${outcome.state}.`;
    await this.conversations.addResult(runId, { execution: input.number, state: outcome.state, text, at });
  }

  /**
   * Ends an execution stopped before its agent started: the follow-ups it was given were
   * never seen, so they wait for the next execution instead of being lost with this one.
   */
  async endUnstarted(runId: string, execution: number, state = 'CANCELLED', text = 'The execution was stopped before it started.'): Promise<void> {
    await this.conversations.release(runId, execution);
    await this.conversations.addResult(runId, { execution, state, text, at: this.clock.now() });
  }

  /**
   * A run that ended with follow-ups no execution took goes back to QUEUED. True when
   * this call moved it (the caller then tells the queue); racing callers move it once.
   */
  async requeueIfPending(runId: string): Promise<boolean> {
    if ((await this.conversations.pendingFollowups(runId)).length === 0) return false;
    return this.requeue(runId);
  }

  /** A terminal run back to QUEUED for a new execution; false when it was not terminal. */
  async requeue(runId: string): Promise<boolean> {
    const run = await this.store.get(runId);
    if (!run || !isTerminalState(run.state)) return false;
    return (await this.moves.requeue(runId)) !== undefined;
  }
}
