import {
  DEFAULT_AGENT_EVENTS_PAGE,
  DEFAULT_INBOX_PAGE,
  isTerminalState,
  ListAgentMessagesQuerySchema,
  MAX_WATCHED_RUNS,
  PollAgentEventsQuerySchema,
  ReportAgentEventRequestSchema,
  SendAgentMessageRequestSchema,
  type AgentEvent,
  type AgentMessage,
  type AgentMessageHeader,
  type ReportAgentEventResponse,
  type RunCreatorInfo,
  type SendAgentMessageResponse,
} from '@agent-runs/core/contract';
import { NotFoundError, UnprocessableError } from '../domain/domain-errors.js';
import { invalidField, invalidInput } from '../domain/invalid-request-input.js';
import { NO_PEERS, type Peers } from '../runs/peers.js';
import { NO_REMOTE_RUNS, type RemoteRuns } from '../runs/remote-runs.js';
import type { RunQueue } from '../runs/run-queue.js';
import type { RunService } from '../runs/run-service.js';
import type { MonotonicClock } from '../runs/monotonic-clock.js';
import type { AgentEventRecord, AgentMessageRecord, MailboxStore } from '../store/mailbox/mailbox-store.js';
import type { RunRecord } from '../store/runs/run-record.js';
import { timeOrderedId } from '../store/time-ordered-id.js';

/**
 * Most messages one run's inbox keeps. A send to a full inbox first drops its oldest read
 * messages; an inbox full of unread ones refuses the send (422), so nothing unread is lost.
 */
export const MAX_INBOX_MESSAGES = 1000;

const header = (m: AgentMessageRecord): AgentMessageHeader => ({
  message_id: m.id,
  sender_run_id: m.senderRunId,
  subject: m.subject,
  sent_at: m.sentAt,
  delivered_at: m.deliveredAt ?? null,
  read_at: m.readAt ?? null,
});

const event = (e: AgentEventRecord): AgentEvent => ({
  event_type: e.eventType,
  run_id: e.runId,
  ref_id: e.refId ?? null,
  execution_id: e.executionId ?? null,
  occurred_at: e.occurredAt,
  sequence: e.sequence,
});

/**
 * The run-to-run mailbox and the lifecycle event feed. A message is seen only by a caller
 * who may read both its runs; to anyone else it, and the runs, do not exist (404). A
 * message to a run this server executes is also appended to its execution's inbox file.
 */
export class MailboxService {
  constructor(
    private readonly store: MailboxStore,
    private readonly runs: RunService,
    private readonly queue: RunQueue,
    private readonly clock: MonotonicClock,
    /** The other servers of the database: one of them may be executing a recipient. */
    private readonly peers: Peers = NO_PEERS,
    /** The self-hosted workers connected here: one of them may be executing a recipient. */
    private readonly remote: Pick<RemoteRuns, 'deliver'> = NO_REMOTE_RUNS,
    private readonly inboxLimit = MAX_INBOX_MESSAGES,
  ) {}

  async send(body: unknown, caller: RunCreatorInfo): Promise<SendAgentMessageResponse> {
    if (body === undefined) throw invalidField('body', 'a JSON object with to, subject, body and sender_run_id is required.');
    const parsed = SendAgentMessageRequestSchema.safeParse(body);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const { to, subject, body: text, sender_run_id } = parsed.data;
    await this.runs.getOrThrow(sender_run_id, caller);
    const recipients: RunRecord[] = [];
    for (const id of to) recipients.push(await this.runs.getOrThrow(id, caller));
    const ended = recipients.flatMap((run, i) => (isTerminalState(run.state) ? [{ path: `to[${i}]`, message: `run ${run.id} has ended (${run.state}); a message cannot reach it` }] : []));
    if (ended.length) throw new UnprocessableError(ended);
    for (const [i, run] of recipients.entries()) await this.makeRoom(run.id, `to[${i}]`);

    const sentAt = this.clock.now();
    const messages: AgentMessageRecord[] = recipients.map((run) => ({ id: timeOrderedId(), senderRunId: sender_run_id, recipientRunId: run.id, subject, body: text, sentAt }));
    await this.store.send(
      messages,
      messages.map((m) => ({ runId: m.recipientRunId, eventType: 'new_message', refId: m.id, occurredAt: sentAt })),
    );
    for (const [i, m] of messages.entries()) {
      // Executed here (by this server or a worker connected to it), or perhaps elsewhere: the other servers are told.
      if (!(await this.deliverIfRunning(m)) && recipients[i]!.state === 'INPROGRESS') this.peers.publish({ kind: 'message', runId: m.recipientRunId, messageId: m.id });
    }
    return { message_ids: messages.map((m) => m.id) };
  }

  /** Drops the oldest read messages of a full inbox; refuses when all it holds are unread. */
  private async makeRoom(runId: string, path: string): Promise<void> {
    const over = (await this.store.inboxSize(runId)) - this.inboxLimit + 1;
    if (over <= 0) return;
    const dropped = await this.store.dropOldestRead(runId, over);
    if (dropped < over) throw new UnprocessableError([{ path, message: `the inbox of run ${runId} is full (${this.inboxLimit} messages, none read that could be dropped)` }]);
  }

  /** A message another server took for a run this one executes: appended to the agent's inbox. */
  async deliverHere(runId: string, messageId: string): Promise<void> {
    const m = await this.store.get(messageId);
    if (m && m.recipientRunId === runId) await this.deliverIfRunning(m);
  }

  /**
   * A running agent this server executes gets the message in its inbox file at once, and one a
   * worker connected here executes gets it with the worker's next answer (its waiting poll is
   * answered at once); it is then delivered. False when neither holds the run.
   */
  private async deliverIfRunning(m: AgentMessageRecord): Promise<boolean> {
    const message = {
      id: m.id,
      kind: 'agent_message' as const,
      sender_run_id: m.senderRunId,
      subject: m.subject,
      message: m.body,
      mode: null,
      created_at: m.sentAt,
    };
    const handed = this.queue.isActive(m.recipientRunId) ? this.queue.deliver(m.recipientRunId, message) : this.remote.deliver(m.recipientRunId, message);
    if (handed) await this.store.stamp(m.id, this.clock.now(), false);
    return handed;
  }

  async list(runId: string, query: URLSearchParams, caller: RunCreatorInfo): Promise<AgentMessageHeader[]> {
    const parsed = ListAgentMessagesQuerySchema.safeParse(Object.fromEntries(query));
    if (!parsed.success) throw invalidInput(parsed.error, 'query');
    await this.runs.getOrThrow(runId, caller);
    const { unread, since, limit } = parsed.data;
    const messages = await this.store.inbox(runId, { unread: unread === 'true', since: since && new Date(since).toISOString(), limit: limit ?? DEFAULT_INBOX_PAGE });
    return messages.map(header);
  }

  /** The message in full; its read_at (and delivered_at) set if not yet. */
  async read(messageId: string, caller: RunCreatorInfo, recipient?: string): Promise<AgentMessage> {
    const m = await this.visible(messageId, caller, recipient);
    const at = this.clock.now();
    await this.store.stamp(m.id, at, true);
    return { ...header({ ...m, readAt: m.readAt ?? at, deliveredAt: m.deliveredAt ?? at }), body: m.body };
  }

  async delivered(messageId: string, caller: RunCreatorInfo, recipient?: string): Promise<void> {
    const m = await this.visible(messageId, caller, recipient);
    await this.store.stamp(m.id, this.clock.now(), false);
  }

  /** The message, if `caller` may read both its runs (and, given `recipient`, it was sent to that run: a run token's own inbox). */
  private async visible(messageId: string, caller: RunCreatorInfo, recipient?: string): Promise<AgentMessageRecord> {
    const m = await this.store.get(messageId);
    const missing = () => new NotFoundError(`No message with id "${messageId}".`);
    if (!m || (recipient !== undefined && m.recipientRunId !== recipient)) throw missing();
    for (const runId of [m.recipientRunId, m.senderRunId]) {
      await this.runs.getOrThrow(runId, caller).catch((error: unknown) => {
        throw error instanceof NotFoundError ? missing() : error;
      });
    }
    return m;
  }

  async report(runId: string, body: unknown, caller: RunCreatorInfo): Promise<ReportAgentEventResponse> {
    if (body === undefined) throw invalidField('body', 'a JSON object with an event_type is required.');
    const parsed = ReportAgentEventRequestSchema.safeParse(body);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    await this.runs.getOrThrow(runId, caller);
    const { event_type, execution_id, ref_id } = parsed.data;
    const sequence = await this.store.addEvent({ runId, eventType: event_type, executionId: execution_id, refId: ref_id, occurredAt: this.clock.now() });
    return { sequence };
  }

  /** `run_ids` repeated or comma-separated; every run must be the caller's to read (and pass `reach`, a run token's scope, when given). */
  async poll(query: URLSearchParams, caller: RunCreatorInfo, reach?: (runId: string) => Promise<unknown>): Promise<AgentEvent[]> {
    const runIds = [...new Set(query.getAll('run_ids').flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
    if (!runIds.length) throw invalidField('run_ids', 'is required: one or more run ids (repeated, or separated by commas).');
    if (runIds.length > MAX_WATCHED_RUNS) throw invalidField('run_ids', `must name at most ${MAX_WATCHED_RUNS} runs.`);
    const parsed = PollAgentEventsQuerySchema.safeParse({ since: query.get('since') ?? undefined, limit: query.get('limit') ?? undefined });
    if (!parsed.success) throw invalidInput(parsed.error, 'query');
    const unknown = [...query.keys()].find((key) => !['run_ids', 'since', 'limit'].includes(key));
    if (unknown) throw invalidField(unknown, 'is not a parameter of this endpoint (run_ids, since, limit).');
    for (const id of runIds) await (reach ? reach(id) : this.runs.getOrThrow(id, caller));
    const events = await this.store.events(runIds, parsed.data.since ?? 0, parsed.data.limit ?? DEFAULT_AGENT_EVENTS_PAGE);
    return events.map(event);
  }
}
