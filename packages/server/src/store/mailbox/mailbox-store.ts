/** A message as the store keeps it: one row per recipient. */
export interface AgentMessageRecord {
  id: string;
  senderRunId: string;
  recipientRunId: string;
  subject: string;
  body: string;
  sentAt: string;
  deliveredAt?: string;
  readAt?: string;
}

/** A lifecycle event of a run, as reported or recorded; `sequence` is the database's. */
export interface AgentEventRecord {
  sequence: number;
  runId: string;
  eventType: string;
  refId?: string | undefined;
  executionId?: string | undefined;
  occurredAt: string;
}

export type NewAgentEvent = Omit<AgentEventRecord, 'sequence'>;

export interface InboxQuery {
  unread: boolean;
  /** Sent at or after this time (RFC 3339). */
  since?: string | undefined;
  limit: number;
}

/** The run-to-run mailbox and the lifecycle event feed. */
export interface MailboxStore {
  /** Keeps the messages and, with them, their `new_message` events, in one transaction. */
  send(messages: readonly AgentMessageRecord[], events: readonly NewAgentEvent[]): Promise<void>;
  get(messageId: string): Promise<AgentMessageRecord | undefined>;
  /** A run's messages, oldest first. */
  inbox(runId: string, query: InboxQuery): Promise<AgentMessageRecord[]>;
  /** How many messages a run's inbox holds, read or not. */
  inboxSize(runId: string): Promise<number>;
  /** Drops a run's oldest read messages, at most `count`; answers how many went. */
  dropOldestRead(runId: string, count: number): Promise<number>;
  /** Sets delivered_at (and, with `read`, read_at) where not set yet. */
  stamp(messageId: string, at: string, read: boolean): Promise<void>;
  /** Answers the event's sequence. */
  addEvent(event: NewAgentEvent): Promise<number>;
  /** The events of these runs after `since`, by sequence. */
  events(runIds: readonly string[], since: number, limit: number): Promise<AgentEventRecord[]>;
}
