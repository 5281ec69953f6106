import {
  isTerminalState,
  RunAgentRequestSchema,
  type RunAgentResponse,
  type RunCreatorInfo,
  type RunStatusMessage,
} from '@agent-runs/core/contract';
import type { RunExecutor } from '../executors/run-executor.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/domain-errors.js';
import { conversationIdOf } from './conversation-id.js';
import { invalidField, invalidInput, invalidLines } from '../domain/invalid-request-input.js';
import { decodeAttachments, type NewRun, type RunOrigin, type RunRecord } from '../store/runs/run-record.js';
import type { RunSetupResolver } from '../catalog/resolve-run-setup.js';
import type { ConversationStore } from '../store/conversations/conversation-store.js';
import type { RunStore } from '../store/runs/run-store.js';
import { timeOrderedId } from '../store/time-ordered-id.js';
import type { MonotonicClock } from './monotonic-clock.js';
import { requestHash } from './request-hash.js';
import { NO_PEERS, type Peers } from './peers.js';
import type { RunEventLog } from './run-event-log.js';
import type { RunQueue } from './run-queue.js';
import { RunBudgets } from './run-budgets.js';
import { PrincipalQuotas, type QuotaStanding } from './principal-quotas.js';
import { runTitle } from './run-title.js';
import type { RunMoves } from './run-moves.js';
import { NO_REMOTE_RUNS, type RemoteRuns } from './remote-runs.js';
import type { OrchestrationLimits } from './orchestration-limits.js';

/** Most descendants one cancel ends with its run: a tree the limits let grow is far smaller. */
const MAX_CANCELLED_DESCENDANTS = 1000;

export interface CreateRunInput {
  body: unknown;
  creator: RunCreatorInfo;
  source: string;
  idempotencyKey: string | undefined;
  /** Set when a schedule fires: shown on the run as `schedule`. */
  schedule?: NonNullable<RunOrigin['schedule']>;
}

/** Creating and cancelling runs: the rules between the HTTP routes and the store and queue. */
export class RunService {
  constructor(
    private readonly store: RunStore,
    private readonly moves: RunMoves,
    private readonly queue: RunQueue,
    private readonly executor: RunExecutor,
    private readonly clock: MonotonicClock,
    private readonly events: RunEventLog,
    private readonly setup: RunSetupResolver,
    private readonly conversations: ConversationStore,
    /** Every key reads and cancels every run; otherwise only its own principal's. */
    readonly sharedRuns = false,
    private readonly peers: Peers = NO_PEERS,
    /** Self-hosted workers: where runs go, and how a cancel reaches one a worker executes. */
    private readonly remote: RemoteRuns = NO_REMOTE_RUNS,
    /** The configuration file's default budgets and maxima. */
    readonly budgets: RunBudgets = new RunBudgets(undefined),
    /** The configuration file's quotas per principal, held at create and follow-up (none: every check passes). */
    readonly quotas: PrincipalQuotas = new PrincipalQuotas(undefined, store),
    /** The `orchestration:` section's limits on a run's children, held at every create that names a parent. */
    private readonly orchestration: OrchestrationLimits | undefined = undefined,
  ) {}

  /** Whether `principal` may read and cancel `run`. */
  mayRead(principal: string | undefined, run: RunRecord): boolean {
    return this.sharedRuns || run.creator.uid === principal;
  }

  /**
   * The runs of a conversation `caller` may see, oldest first; undefined when there is no
   * such conversation or it is not theirs. A conversation belongs to the creator of its
   * first run; a run another principal added later is left out, never taken as the owner's.
   */
  async conversationRuns(conversationId: string, caller: RunCreatorInfo): Promise<RunRecord[] | undefined> {
    let runs = await this.store.conversationRuns(conversationId);
    if (runs.length === 0) {
      // A run stored before runs had a conversation is one of its own, under the run's id.
      const run = await this.store.get(conversationId);
      if (run && conversationIdOf(run) === conversationId) runs = [run];
    }
    if (!runs[0] || !this.mayRead(caller.uid, runs[0])) return undefined;
    return runs.filter((run) => this.mayRead(caller.uid, run));
  }

  async create(input: CreateRunInput): Promise<RunAgentResponse> {
    return (await this.createWithQuota(input)).response;
  }

  /**
   * A create, and where its principal stands against its per-minute quota after it (for the
   * RateLimit headers; undefined when none applies), from the store's read as it inserted.
   */
  async createWithQuota({ body, creator, source, idempotencyKey, schedule }: CreateRunInput): Promise<{ response: RunAgentResponse; quota: QuotaStanding | undefined }> {
    if (body === undefined) throw invalidField('body', 'a JSON object with a prompt is required.');
    const parsed = RunAgentRequestSchema.safeParse(body);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const {
      prompt = '',
      config = {},
      title,
      skill,
      attachments,
      metadata,
      mode,
      interactive,
      parent_run_id: parentRunId,
      conversation_id: conversationId,
      agent_identity_uid: agentIdentityUid,
      ...rest
    } = parsed.data;
    const parent = parentRunId === undefined ? undefined : await this.store.get(parentRunId);
    // Another principal's run is as unknown as a missing one; a 400 as the SDK documents (a bad value in the body).
    if (parentRunId !== undefined && (!parent || !this.mayRead(creator.uid, parent))) {
      throw invalidField('parent_run_id', `no run with id "${parentRunId}".`);
    }
    if (parent) await this.orchestration?.checkChild(parent);
    const conversation = conversationId === undefined ? undefined : await this.conversationRuns(conversationId, creator);
    // A 400, not a 404: the published create answers 400 for a bad body and lists no 404, and
    // another principal's conversation gets the same answer as an unknown one (its existence stays hidden).
    if (conversationId !== undefined && !conversation) {
      throw invalidField('conversation_id', `no conversation "${conversationId}" of yours; give the conversation_id of one of your runs.`);
    }
    // A handoff without a prompt continues the conversation with its last instruction.
    const instruction = prompt.trim() === '' && conversation ? await this.lastInstruction(conversation) : prompt;
    const executorProblems = this.executor.check?.(instruction) ?? [];
    if (executorProblems.length) throw invalidLines(executorProblems);

    const skillSpec = skill ?? config.skill_spec;
    const resolved = await this.setup.resolve({ config, skill, identityUid: agentIdentityUid, principal: creator.uid });
    const route = await this.remote.route(resolved.config);
    // A harness this server cannot start, or a model it has disabled, is refused now rather than failing later
    // (for a run a worker executes, that worker's configuration decides). Checked before the
    // configured default budget is added: a default cost cap is no fault of a command run's.
    const configProblems = route.remote ? [] : (this.executor.checkConfig?.(resolved.config, creator.uid) ?? []);
    if (configProblems.length) throw new InvalidInputError(configProblems);
    const agentConfig = this.budgets.apply(resolved.config, creator.uid);
    if (instruction.trim() === '' && !agentConfig.base_prompt?.trim()) {
      // Skills this server does not have, or a conversation with no instruction, leave the agent nothing to do.
      throw invalidField('prompt', 'is required here: no skill this server has gives a base prompt, and no earlier instruction of the conversation is there to continue.');
    }
    // Last of the checks, held by the store as it inserts: a request refused for its content is not counted against the caller's quota.
    const quotaAt = new Date();
    const hold = this.quotas.hold(creator.uid, quotaAt);
    const origin = { ...resolved.origin, ...(schedule ? { schedule } : {}) };
    const now = this.clock.now();
    const run: NewRun = {
      id: timeOrderedId(),
      title: title?.trim() || runTitle(instruction, resolved.origin.agent_skill?.name ?? skillSpec),
      state: 'QUEUED',
      prompt: instruction,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      statusMessage: route.waiting ?? null,
      source,
      creator,
      sessionId: timeOrderedId(),
      agentConfig,
      parentRunId,
      // Every run has a conversation: the one it continues, or a new one of its own.
      conversationId: conversationId ?? timeOrderedId(),
      metadata,
      mode,
      interactive,
      agentIdentityUid,
      attachments: decodeAttachments(attachments),
      origin: Object.keys(origin).length ? origin : undefined,
      scheduleId: schedule?.schedule_id,
      request: { skill: skill || undefined, ...rest },
      idempotencyKey: idempotencyKey ?? null,
      requestHash: idempotencyKey ? requestHash(body) : null,
      workerHost: route.workerHost,
      childLimit: parent ? this.orchestration?.maxChildren : undefined,
      quota: hold,
    };
    // Its QUEUED event is stored with it, in the same transaction.
    const event = await this.events.firstEvent(run);
    const result = await this.store.create(run, event);
    // Throws when the store found the principal at a quota (nothing stored, checked before the key and the parent, as before the insert).
    const quota = hold && result.standing ? this.quotas.judge(creator.uid!, hold, result.standing, quotaAt) : undefined;
    if (result.kind === 'quota_exceeded') throw new Error('The store refused a create for a quota that its own reading of the standing does not reach.');
    // Only a create given childLimit (a parent, under orchestration limits) can find its parent full.
    if (result.kind === 'parent_full') throw this.orchestration!.tooManyChildren(parentRunId!);
    if (result.kind === 'conflict') {
      throw new ConflictError(
        `Idempotency-Key "${idempotencyKey}" was already used for a different request (run ${result.run.id}); use a new key for a new run.`,
        false,
      );
    }
    const atCapacity = result.kind === 'created' && this.queue.atCapacity;
    if (result.kind === 'created') {
      this.events.firstStored(result.run.id, event);
      this.queue.runQueued();
    }
    const state = result.kind === 'created' ? 'QUEUED' : ((await this.store.get(result.run.id))?.state ?? result.run.state);
    const response = { run_id: result.run.id, task_id: result.run.id, state, at_capacity: atCapacity || undefined };
    // A replay stored no run: the one the check counted in is given back.
    return { response, quota: quota && result.kind !== 'created' ? { ...quota, remaining: quota.remaining + 1 } : quota };
  }

  /** The newest instruction of a conversation: its newest run's last follow-up, else the newest prompt given. */
  private async lastInstruction(runs: readonly RunRecord[]): Promise<string> {
    for (const run of [...runs].reverse()) {
      const followups = (await this.conversations.list(run.id)).filter((m) => m.kind === 'followup' && m.text.trim() !== '');
      const text = followups.at(-1)?.text ?? run.prompt;
      if (text.trim() !== '') return text;
    }
    return '';
  }

  /** The run, if `caller` may read it; another principal's run is as unknown as a missing one. */
  async getOrThrow(runId: string, caller: RunCreatorInfo): Promise<RunRecord> {
    const run = await this.store.get(runId);
    if (!run || !this.mayRead(caller.uid, run)) throw new NotFoundError(`No run with id "${runId}".`);
    return run;
  }

  /** QUEUED or INPROGRESS → CANCELLED; the work is stopped, the process group ended, and so are its descendants'. */
  async cancel(runId: string, by: RunCreatorInfo): Promise<RunRecord> {
    const run = await this.getOrThrow(runId, by);
    if (isTerminalState(run.state)) {
      // No field is at fault: the run's state is.
      throw new InvalidInputError([], `Run ${runId} is already ${run.state} and cannot be cancelled.`);
    }
    if (run.state === 'PENDING' || run.state === 'CLAIMED') {
      throw new ConflictError(`Run ${runId} is ${run.state}, being handed to a worker; try the cancel again in a moment.`, true);
    }
    const cancelled = await this.stop(run, { message: `Cancelled by ${by.display_name ?? by.uid ?? 'the caller'}.` });
    // It changed state between the read and the update: answer as for its new state.
    if (!cancelled) return this.cancel(runId, by);
    await this.cancelDescendants(runId);
    return cancelled;
  }

  /**
   * Cancels the runs below `runId` that are still queued or running, however deep (one
   * recursive read, at most MAX_CANCELLED_DESCENDANTS): an orchestrator's children must
   * not go on spending once it is cancelled. A descendant that ends meanwhile is left be.
   */
  private async cancelDescendants(runId: string): Promise<void> {
    const { runs } = await this.store.list({ ancestorRunId: runId, states: ['QUEUED', 'INPROGRESS'], limit: MAX_CANCELLED_DESCENDANTS, sortBy: 'created_at', sortOrder: 'asc' });
    const message = { message: `Cancelled with its ancestor run ${runId}.` };
    for (const run of runs) if (run.id !== runId) await this.stop(run, message);
  }

  /** Moves a QUEUED or INPROGRESS run to CANCELLED and stops its work; undefined when it was no longer in either state. */
  private async stop(run: RunRecord, message: RunStatusMessage): Promise<RunRecord | undefined> {
    const runId = run.id;
    // Read before the move lets the lease go.
    const onWorker = run.state === 'INPROGRESS' && !this.queue.isActive(runId) && (await this.remote.onWorker(runId));
    const cancelled = await this.moves.cancel(runId, message);
    if (!cancelled) return undefined;
    // Answered at once: the agent's process group is ended in the background (SIGTERM, then
    // SIGKILL after a grace period), and its slot is freed once it is gone. Another server
    // executing it is told; it also lets the run go at its next lease renewal.
    if (this.queue.isActive(runId)) void this.queue.abandon(runId, true);
    else if (run.state === 'INPROGRESS') {
      if (onWorker) await this.remote.cancelled(runId, message);
      this.peers.publish({ kind: 'cancel', runId });
    }
    return cancelled;
  }
}
