import type { ArtifactStore } from './artifact-store.js';
import type { ClusterStore } from './cluster.js';
import type { ConversationStore } from './conversation-store.js';
import type { NamedAgentStore } from './named-agent-store.js';
import type { RunEventStore } from './run-event-store.js';
import type { RunStore } from './run-store.js';
import type { ScheduleStore } from './schedule-store.js';
import type { CatalogActivity } from './catalog-activity.js';
import type { WebhookStore } from './webhook-store.js';

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
  /** Present when several servers may share the database. */
  cluster?: ClusterStore;
  /** Where the data is, for the start-up line ("data in ./data", "PostgreSQL db@host:5432"). */
  description: string;
  close(): Promise<void>;
}
