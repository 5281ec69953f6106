import { dirname } from 'node:path';
import { openRunStore } from './open-run-store.js';
import { SqliteArtifactStore } from './artifacts/sqlite-artifact-store.js';
import { SqliteConversationStore } from './conversations/sqlite-conversation-store.js';
import { SqliteNamedAgentStore } from './named-agents/sqlite-named-agent-store.js';
import { SqliteRunEventStore } from './run-events/sqlite-run-event-store.js';
import { SqliteScheduleStore } from './schedules/sqlite-schedule-store.js';
import { SqliteCatalogActivity } from './catalog/sqlite-catalog-activity.js';
import type { Storage } from './storage.js';
import { SqliteConnectedWorkerStore } from './workers/sqlite-connected-worker-store.js';
import { SqliteRunTokenStore } from './run-tokens/sqlite-run-token-store.js';
import { SqliteMailboxStore } from './mailbox/sqlite-mailbox-store.js';
import { SqliteWebhookStore } from './webhooks/sqlite-webhook-store.js';

/** Every store in one SQLite file (or in memory for `:memory:`), for one server. */
export function openSqliteStorage(file: string): Storage {
  const runs = openRunStore(file);
  // A server writes all day: its checkpoints are made beside the requests, not in their commits.
  runs.checkpointInBackground();
  return {
    runs,
    events: new SqliteRunEventStore(runs.db),
    artifacts: new SqliteArtifactStore(runs.db),
    conversations: new SqliteConversationStore(runs.db, runs.writes),
    schedules: new SqliteScheduleStore(runs.db),
    namedAgents: new SqliteNamedAgentStore(runs.db),
    activity: new SqliteCatalogActivity(runs.db),
    webhooks: new SqliteWebhookStore(runs.db, runs.writes),
    workers: new SqliteConnectedWorkerStore(runs.db),
    runTokens: new SqliteRunTokenStore(runs.db),
    mailbox: new SqliteMailboxStore(runs.db),
    description: file === ':memory:' ? 'in memory' : `data in ${dirname(file)}`,
    close: () => runs.close(),
  };
}
