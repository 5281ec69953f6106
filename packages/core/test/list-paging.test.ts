import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, RequestValidationError, type AgentIdentity, type ScheduledAgentItem } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';

// Schedules and named agents come a page at a time; the client walks the pages as it does runs'.
let server: RunningServer;
let client: AgentRunsClient;
beforeAll(async () => {
  server = await startServer({ port: 0, storage: 'memory', quiet: true });
  client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 });
  for (let i = 0; i < 7; i++) {
    await client.schedules.create({ name: `s${i}`, cron_schedule: '0 2 * * *', prompt: 'Tidy up', enabled: false });
    await client.agents.create({ name: `a${i}`, prompt: 'Help' });
  }
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('client.schedules.list and client.agents.list', () => {
  it('await the first page, with page_info', async () => {
    const schedules = await client.schedules.list({ limit: 3 });
    expect(schedules.schedules.map((s) => s.name)).toEqual(['s0', 's1', 's2']);
    expect(schedules.page_info).toEqual({ has_next_page: true, next_cursor: expect.any(String) });
    const agents = await client.agents.list({ limit: 3 });
    expect(agents.agents.map((a) => a.name)).toEqual(['a0', 'a1', 'a2']);
  });

  it('walk every page with for await, none twice', async () => {
    const schedules: ScheduledAgentItem[] = [];
    for await (const schedule of client.schedules.list({ limit: 3 })) schedules.push(schedule);
    expect(schedules.map((s) => s.name)).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6']);
    const agents: AgentIdentity[] = [];
    for await (const agent of client.agents.list({ limit: 2 })) agents.push(agent);
    expect(agents.map((a) => a.name)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
  });

  it('refuse a limit out of range before sending, naming it', async () => {
    await expect(client.schedules.list({ limit: 0 })).rejects.toThrow(RequestValidationError);
    await expect(client.agents.list({ limit: 501 })).rejects.toThrow(/limit: must be an integer from 1 to 500/);
  });
});
