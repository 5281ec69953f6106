import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer, type ServerOptions } from '../../src/index.js';
import { createTestDatabase } from '../../../../test/support/postgres.js';

/**
 * `AGENT_RUNS_TEST_STORAGE=postgres` runs the server tests on PostgreSQL: each server
 * asked for in memory gets a new database of its own instead.
 */
const onPostgres = process.env.AGENT_RUNS_TEST_STORAGE === 'postgres';
const POSTGRES_KEY = { key: 'postgres-test-key-0123456789', principal: 'local' };

export interface TestServer {
  server: RunningServer;
  client: AgentRunsClient;
  /** A raw request with the server's key, for what the client would refuse to send. */
  raw(path: string, init?: RequestInit & { key?: string | null }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/** An in-memory server on a free loopback port and a client for it. */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const database = onPostgres && options.storage !== 'file' && !options.dataDir ? await createTestDatabase() : undefined;
  const storage: ServerOptions = database
    ? { databaseUrl: database.url, ...(options.apiKeys || options.noAuth ? {} : { apiKeys: [POSTGRES_KEY] }) }
    : { storage: 'memory' };
  const server = await startServer({ ...storage, quiet: true, simulatedDurationMs: 100, ...options });
  const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 });
  return {
    server,
    client,
    async raw(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== null) headers.set('authorization', `Bearer ${key ?? server.apiKey}`);
      const res = await fetch(`${server.url}${path}`, { ...rest, headers });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: keep the text.
      }
      return { status: res.status, body, headers: res.headers };
    },
    async close() {
      await client.close();
      await server.close();
      await database?.drop();
    },
  };
}
