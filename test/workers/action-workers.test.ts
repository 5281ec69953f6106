import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep } from '../../packages/action/test/support/runner.js';
import { API_KEY, startWorkerServer } from './worker-server.js';

let t: Awaited<ReturnType<typeof startWorkerServer>>;
beforeAll(async () => {
  t = await startWorkerServer();
});
afterAll(() => t?.close());

const inputs = (more: Record<string, string>) => ({ 'api-key': API_KEY, 'base-url': t.server.baseURL, 'poll-interval': '100ms', ...more });

describe('the bundled Action’s worker-host input', () => {
  it('starts a run whose agent_config.worker_host names the worker', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Train the model', 'worker-host': 'gpu', wait: 'false' }) });
    expect(step.error).toBeUndefined();
    expect(step.code).toBe(0);
    const runId = step.outputs['run-id']!;
    expect((await t.client.runs.get(runId)).agent_config?.worker_host).toBe('gpu');
    expect(JSON.parse(step.outputs.run!).agent_config.worker_host).toBe('gpu');
    await t.client.runs.cancel(runId);
  });

  it('fails the step with the server’s refusal of an id it has no worker token for, naming the field', async () => {
    const step = await runStep({ inputs: inputs({ prompt: 'Train the model', 'worker-host': 'nowhere', wait: 'false' }) });
    expect(step.code).toBe(1);
    expect(step.error).toMatch(/worker_host/);
    expect(step.error).toMatch(/nowhere/);
    expect(step.stdout).not.toMatch(/\n\s+at /);
  });

  it('is refused beside run-id, before any request', async () => {
    const step = await runStep({ inputs: inputs({ 'run-id': 'some-run', message: 'Go on', 'worker-host': 'gpu' }) });
    expect(step.code).toBe(1);
    expect(step.error).toMatch(/Input "worker-host" places a new run/);
  });
});
