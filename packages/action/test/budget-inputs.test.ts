import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverInputs, startActionServer } from './support/action-server.js';
import { runStep } from './support/runner.js';

/** The budget inputs, through the bundled action as the runner runs it, against a real local server. */
let env: Awaited<ReturnType<typeof startActionServer>>;
beforeAll(async () => {
  env = await startActionServer();
});
afterAll(async () => {
  await env.close();
});

describe('budget inputs', () => {
  it('sends max-duration as config.budget; a run stopped at it fails the step with the spend and the cap in the summary', async () => {
    const result = await runStep({ inputs: serverInputs(env.server, { prompt: 'Think long [simulate 5s]', 'max-duration': '1s' }) });
    expect(result.code).toBe(1);
    expect(result.outputs.state).toBe('BLOCKED');
    expect(result.summary).toContain('stopped at the budget');
    expect(result.summary).toContain('max&#95;duration&#95;seconds 1');
    const run = await env.client.runs.get(result.outputs['run-id']!);
    expect(run.agent_config?.budget).toEqual({ max_duration_seconds: 1 });
  }, 30_000);

  it('with run-id, a raised cap goes with the follow-up', async () => {
    const first = await runStep({ inputs: serverInputs(env.server, { prompt: 'Think long [simulate 3s]', 'max-duration': '1s' }) });
    const runId = first.outputs['run-id']!;
    const result = await runStep({ inputs: serverInputs(env.server, { 'run-id': runId, message: 'Go on', 'max-duration': '10m', wait: 'false' }) });
    expect(result.code, result.error).toBe(0);
    expect((await env.client.runs.get(runId)).agent_config?.budget).toEqual({ max_duration_seconds: 600 });
  }, 30_000);

  it('names every bad cap in one failure and creates nothing', async () => {
    const before = (await env.client.runs.list({ limit: 100 })).runs.length;
    const result = await runStep({ inputs: serverInputs(env.server, { prompt: 'Hello', 'max-cost-usd': '-1', 'max-tokens': 'many', 'max-duration': '30d' }) });
    expect(result.code).toBe(1);
    expect(result.error).toContain('Input "max-cost-usd" must be a number from 0.0001 to 100000, got "-1"');
    expect(result.error).toContain('Input "max-tokens" must be a whole number from 1 to 10000000000, got "many"');
    expect(result.error).toContain('Input "max-duration"');
    expect((await env.client.runs.list({ limit: 100 })).runs.length).toBe(before);
  });
});
