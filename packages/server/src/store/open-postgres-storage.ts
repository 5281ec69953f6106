import pg from 'pg';
import { ServerConfigError } from '../domain/server-config-error.js';
import { PostgresArtifactStore } from './artifacts/postgres-artifact-store.js';
import { PostgresConversationStore } from './conversations/postgres-conversation-store.js';
import { PostgresNamedAgentStore } from './named-agents/postgres-named-agent-store.js';
import { PostgresRunLeases } from './runs/postgres-run-leases.js';
import { migratePostgres } from './postgres-migrations.js';
import { NulSafeClient } from './postgres-nul-safe-client.js';
import { PostgresRunEventStore } from './run-events/postgres-run-event-store.js';
import { PostgresRunStore } from './runs/postgres-run-store.js';
import { PostgresScheduleStore } from './schedules/postgres-schedule-store.js';
import { PostgresSharedSecrets } from './postgres-secrets.js';
import { PostgresSignals } from './postgres-signals.js';
import { PostgresCatalogActivity } from './catalog/postgres-catalog-activity.js';
import { PostgresConnectedWorkerStore } from './workers/postgres-connected-worker-store.js';
import { PostgresRunTokenStore } from './run-tokens/postgres-run-token-store.js';
import { PostgresMailboxStore } from './mailbox/postgres-mailbox-store.js';
import { postgresTarget } from './postgres-url.js';
import type { Storage } from './storage.js';
import { PostgresWebhookStore } from './webhooks/postgres-webhook-store.js';

export interface PostgresStorageOptions {
  log: (line: string) => void;
  /** This server's id among those sharing the database: its signals are not delivered back to it. */
  serverId: string;
  /** Connections the pool may hold (default 10); one more listens for signals. */
  poolSize?: number;
}

/** How long to wait for a connection before giving up, at start-up and later. */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * The longest a statement may run (a lock wait included), and a transaction may sit idle,
 * before PostgreSQL ends it: a stuck query fails its request instead of holding it, and
 * its locks, for ever. Every statement of the server takes milliseconds.
 */
const STATEMENT_TIMEOUT_MS = 30_000;
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * Connects to PostgreSQL, migrates the schema (one server at a time) and answers every store
 * on one pool, plus the cluster's leases, signals and shared secrets. A database that cannot
 * be reached is reported as a ServerConfigError naming the URL without its password.
 */
export async function openPostgresStorage(url: string, options: PostgresStorageOptions): Promise<Storage> {
  const target = postgresTarget(url);
  const poolSize = options.poolSize ?? 10;
  if (!Number.isSafeInteger(poolSize) || poolSize < 1) {
    throw new ServerConfigError(`The database pool size must be a whole number of connections, at least 1; got ${poolSize}.`);
  }
  const connection: pg.ClientConfig = {
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    application_name: 'agent-runs-server',
  };
  const pool = new pg.Pool({ ...connection, max: poolSize, Client: NulSafeClient });
  // An idle connection the database dropped must not take the process down; the pool makes another.
  // A database going away drops every idle connection at once: one line for them all.
  let idleErrorLoggedAt = -Infinity;
  pool.on('error', (error) => {
    if (Date.now() - idleErrorLoggedAt < 60_000) return;
    idleErrorLoggedAt = Date.now();
    options.log(`PostgreSQL connections failed while idle (${error.message}); they are replaced.`);
  });
  let signals: PostgresSignals | undefined;
  try {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      const { code, message } = error as { code?: string; message: string };
      throw new ServerConfigError(
        `Cannot connect to the PostgreSQL database ${target.shown} (${code ?? 'error'}: ${message}); check that the server is running and reachable from here, ` +
          'that the database exists, and the user name and password.',
      );
    }
    try {
      await migratePostgres(client);
    } finally {
      client.release();
    }
    signals = new PostgresSignals(pool, { ...connection, application_name: 'agent-runs-server signals' }, options.serverId, options.log);
    await signals.start();
  } catch (error) {
    await signals?.close();
    await pool.end().catch(() => undefined);
    throw error;
  }
  const listening = signals;
  let closing: Promise<void> | undefined;
  return {
    runs: new PostgresRunStore(pool),
    events: new PostgresRunEventStore(pool, options.serverId),
    artifacts: new PostgresArtifactStore(pool),
    conversations: new PostgresConversationStore(pool),
    schedules: new PostgresScheduleStore(pool, options.serverId),
    namedAgents: new PostgresNamedAgentStore(pool),
    activity: new PostgresCatalogActivity(pool),
    webhooks: new PostgresWebhookStore(pool),
    workers: new PostgresConnectedWorkerStore(pool),
    runTokens: new PostgresRunTokenStore(pool),
    mailbox: new PostgresMailboxStore(pool),
    cluster: { leases: new PostgresRunLeases(pool), signals: listening, secrets: new PostgresSharedSecrets(pool) },
    description: target.description,
    close() {
      closing ??= listening.close().then(() => pool.end());
      return closing;
    },
  };
}
