import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer, type ServerOptions } from '@agent-runs/server';

/** One in-memory local server per test file, and a client to look at its runs. */
export async function startActionServer(options: ServerOptions = {}): Promise<{ server: RunningServer; client: AgentRunsClient; close(): Promise<void> }> {
  const server = await startServer({ port: 0, storage: 'memory', simulatedDurationMs: 100, quiet: true, concurrency: 8, ...options });
  const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 });
  return {
    server,
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The inputs that point a step at `server`, with fast polling, plus `more`. */
export function serverInputs(server: RunningServer, more: Record<string, string> = {}): Record<string, string> {
  return { 'api-key': server.apiKey, 'base-url': server.baseURL, 'poll-interval': '100ms', ...more };
}
