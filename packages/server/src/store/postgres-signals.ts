import pg from 'pg';
import { Backoff } from '../domain/backoff.js';
import type { ClusterSignal, ClusterSignals } from './cluster.js';

/** The channel every server of a database listens on (the event store notifies on it too). */
export const SIGNAL_CHANNEL = 'agent_runs';


const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * The signal in a notification's payload, or undefined when it is not one this server knows
 * or when `self` sent it. Payloads come from any client of the database: nothing is trusted.
 */
export function parseSignal(payload: string | undefined, self: string): ClusterSignal | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload ?? '');
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!isText(v.from) || v.from === self) return undefined;
  switch (v.kind) {
    case 'queued':
      return { kind: 'queued' };
    case 'events':
      return isText(v.runId) && Number.isSafeInteger(v.lastId) ? { kind: 'events', runId: v.runId, lastId: v.lastId as number } : undefined;
    case 'cancel':
      return isText(v.runId) ? { kind: 'cancel', runId: v.runId } : undefined;
    case 'followup':
      return isText(v.runId) && isText(v.followupId) ? { kind: 'followup', runId: v.runId, followupId: v.followupId } : undefined;
    case 'message':
      return isText(v.runId) && isText(v.messageId) ? { kind: 'message', runId: v.runId, messageId: v.messageId } : undefined;
    default:
      return undefined;
  }
}

/**
 * LISTEN/NOTIFY between the servers of one database. Sending goes through the pool; hearing
 * needs a connection of its own, held open for the server's life. When that connection
 * breaks it is made again after a growing delay (100 ms doubling to 5 s), and the
 * `onReconnect` listeners are told, since signals sent meanwhile were missed.
 */
export class PostgresSignals implements ClusterSignals {
  private client: pg.Client | undefined;
  /** Between tries to listen again: from 100 ms, doubling up to 5 s. */
  private readonly backoff = new Backoff({ firstMs: 100, maxMs: 5_000 });
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly listeners: ((signal: ClusterSignal) => void)[] = [];
  private readonly reconnectListeners: (() => void)[] = [];
  /** The `queued` notification on its way, and the one to send after it. */
  private queuedSending: Promise<void> | undefined;
  private queuedNext: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly connection: pg.ClientConfig,
    private readonly serverId: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Opens the listening connection; rejects when the database cannot be reached. */
  async start(): Promise<void> {
    await this.connect();
  }

  async publish(signal: ClusterSignal): Promise<void> {
    if (signal.kind === 'queued') return this.publishQueued();
    await this.notify(signal);
  }

  /**
   * `queued` says no more than "look at the queue", so while one is on its way every further
   * one becomes a single notification sent after it: each run queued is still announced after
   * its commit, and a burst of creates costs two notifications, not one each.
   */
  private publishQueued(): Promise<void> {
    if (!this.queuedSending) {
      this.queuedSending = this.notify({ kind: 'queued' }).finally(() => {
        this.queuedSending = undefined;
      });
      return this.queuedSending;
    }
    this.queuedNext ??= this.queuedSending
      .catch(() => undefined)
      .then(() => {
        this.queuedNext = undefined;
        return this.publishQueued();
      });
    return this.queuedNext;
  }

  private async notify(signal: ClusterSignal): Promise<void> {
    await this.pool.query({
      name: 'agent-runs-notify',
      text: 'SELECT pg_notify($1, $2)',
      values: [SIGNAL_CHANNEL, JSON.stringify({ ...signal, from: this.serverId })],
    });
  }

  subscribe(listener: (signal: ClusterSignal) => void): void {
    this.listeners.push(listener);
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.connection);
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === SIGNAL_CHANNEL) this.deliver(parseSignal(message.payload, this.serverId));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SIGNAL_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private deliver(signal: ClusterSignal | undefined): void {
    if (!signal) return;
    for (const listener of this.listeners) {
      try {
        listener(signal);
      } catch (error) {
        this.log(`A listener for the other servers' ${signal.kind} signal failed: ${(error as Error).message}`);
      }
    }
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.log(`The connection listening for the other servers' signals was lost (${error?.message ?? 'closed by the database'}); reconnecting.`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.retry = setTimeout(() => {
      this.connect().then(
        () => {
          if (this.closed) return;
          this.backoff.reset();
          this.log("Listening for the other servers' signals again.");
          for (const listener of this.reconnectListeners) {
            try {
              listener();
            } catch (error) {
              this.log(`A reconnect listener failed: ${(error as Error).message}`);
            }
          }
        },
        () => {
          if (this.closed) return;
          this.scheduleReconnect();
        },
      );
    }, this.backoff.next());
  }
}
