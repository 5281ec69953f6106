import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type ServerOptions } from '@agent-runs/server';

export const TEST_KEY = 'cli-test-key-0123456789';

/** One in-memory server per test file, with fast simulated runs. */
export async function startTestServer(options: ServerOptions = {}) {
  const server = await startServer({
    port: 0,
    storage: 'memory',
    simulatedDurationMs: 100,
    concurrency: 50,
    apiKeys: [{ key: TEST_KEY, principal: 'tester' }],
    quiet: true,
    ...options,
  });
  // Seeding and checking go through the core client, identified as a plain API caller.
  const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: TEST_KEY, maxRetries: 0 });
  return {
    server,
    client,
    /** The global flags that point the command at this server. */
    target: ['--base-url', server.baseURL],
    env: { AGENT_RUNS_API_KEY: TEST_KEY },
    async close() {
      await client.close();
      await server.close();
    },
  };
}
