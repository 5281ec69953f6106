import type { ArtifactStore } from './artifacts/artifact-store.js';
import type { ClusterStore } from './cluster.js';
import type { ConversationStore } from './conversations/conversation-store.js';
import type { NamedAgentStore } from './named-agents/named-agent-store.js';
import type { RunEventStore } from './run-events/run-event-store.js';
import type { RunStore } from './runs/run-store.js';
import type { ScheduleStore } from './schedules/schedule-store.js';
import type { CatalogActivity } from './catalog/catalog-activity.js';
import type { WebhookStore } from './webhooks/webhook-store.js';
import type { MailboxStore } from './mailbox/mailbox-store.js';
import type { ConnectedWorkerStore } from './workers/connected-worker-store.js';
import type { RunTokenRecords } from '../domain/run-tokens.js';

/** Every store of one database: SQLite (one server) or PostgreSQL (any number of servers). */
export interface Storage {
  runs: RunStore;
  events: RunEventStore;
  artifacts: ArtifactStore;
  conversations: ConversationStore;
  schedules: ScheduleStore;
  namedAgents: NamedAgentStore;
  activity: CatalogActivity;
  webhooks: WebhookStore;
  /** The self-hosted worker processes connected to the servers of the database. */
  workers: ConnectedWorkerStore;
  /** The run-to-run mailbox and the lifecycle event feed. */
  mailbox: MailboxStore;
  /** The digests of the run tokens in use, which every server of the database honours. */
  runTokens: RunTokenRecords;
  /** Present when several servers may share the database. */
  cluster?: ClusterStore;
  /** Where the data is, for the start-up line ("data in ./data", "PostgreSQL db@host:5432"). */
  description: string;
  close(): Promise<void>;
}
