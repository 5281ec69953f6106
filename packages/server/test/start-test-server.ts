import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer, type ServerOptions } from '../src/index.js';

export interface TestServer {
  server: RunningServer;
  client: AgentRunsClient;
  /** A raw request with the server's key, for what the client would refuse to send. */
  raw(path: string, init?: RequestInit & { key?: string | null }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/** An in-memory server on a free loopback port and a client for it. */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const server = await startServer({ storage: 'memory', quiet: true, simulatedDurationMs: 100, ...options });
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
    },
  };
}
