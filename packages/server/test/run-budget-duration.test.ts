import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
beforeAll(async () => {
  // An agent that takes two seconds, then says it is done.
  t = await startTestServer({ executor: 'command', command: 'sleep 2; echo done' });
});
afterAll(async () => t?.close());

describe('max_duration_seconds with the command agent', () => {
  it('stops the agent at the wall-time cap and ends the run BLOCKED; a follow-up with a raised cap lets it finish', async () => {
    const created = await t.client.runs.create({ prompt: 'work', config: { budget: { max_duration_seconds: 1 } } });
    const blocked = await t.client.runs.wait(created.run_id, { timeout: 20_000 });
    expect(blocked.state, JSON.stringify(blocked.status_message)).toBe('BLOCKED');
    expect(blocked.status_message).toMatchObject({ error_code: 'budget_exceeded', message: expect.stringMatching(/^stopped at the budget: 1 s run of max_duration_seconds 1\. /) });
    // Stopped at the cap, before the agent's own end.
    const output = await t.client.runs.output(created.run_id);
    expect(JSON.stringify(output)).not.toContain('done');

    await t.client.runs.followup(created.run_id, { message: 'take your time', budget: { max_duration_seconds: 30 } });
    const finished = await t.client.runs.wait(created.run_id, { timeout: 20_000 });
    expect(finished.state, JSON.stringify(finished.status_message)).toBe('SUCCEEDED');
    expect(finished.agent_config?.budget).toEqual({ max_duration_seconds: 30 });
  });
});
