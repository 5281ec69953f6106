import { afterEach, beforeEach } from 'vitest';
import { AgentRunsClient, type ClientOptions } from '../../src/index.js';
import { startFaultServer, type FaultServer } from './fault-server.js';

/** A fault server and a client pointed at it, fresh for each test; retries are fast. */
export function useFaultServer(clientOptions: ClientOptions = {}) {
  const ctx = {} as { server: FaultServer; client: AgentRunsClient };
  beforeEach(async () => {
    ctx.server = await startFaultServer();
    ctx.client = new AgentRunsClient({
      baseURL: ctx.server.baseURL,
      apiKey: 'test-key',
      env: {},
      ...clientOptions,
    });
  });
  afterEach(async () => {
    await ctx.client.close();
    await ctx.server.close();
  });
  return ctx;
}
