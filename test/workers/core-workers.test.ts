import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, AuthenticationError, BadRequestError, ConnectedWorkersResponseSchema } from '@agent-runs/core';
import { startWorkerServer } from './worker-server.js';

let t: Awaited<ReturnType<typeof startWorkerServer>>;
beforeAll(async () => {
  t = await startWorkerServer();
});
afterAll(() => t?.close());

describe('client.workers.list()', () => {
  it('lists the workers connected over the worker protocol, parsed, with the response at hand', async () => {
    expect(await t.client.workers.list()).toEqual({ workers: [] });
    expect((await t.connectWorker({ instance_id: 'gpu-box-2', capacity: 2 })).status).toBe(200);
    expect((await t.connectWorker({ instance_id: 'gpu-box-1' })).status).toBe(200);
    const { data, response } = await t.client.workers.list().withResponse();
    expect(response.status).toBe(200);
    expect(ConnectedWorkersResponseSchema.parse(data)).toEqual(data);
    // By worker host, then instance.
    expect(data.workers.map((w) => [w.worker_host, w.instance_id, w.capacity, w.running_runs])).toEqual([
      ['gpu', 'gpu-box-1', 4, 0],
      ['gpu', 'gpu-box-2', 2, 0],
    ]);
    expect(Date.parse(data.workers[0]!.last_heartbeat_at)).not.toBeNaN();
  });

  it('fails as the other resources do, with the API’s error', async () => {
    const stranger = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: 'not-a-key-0123456789', maxRetries: 0 });
    await expect(stranger.workers.list()).rejects.toBeInstanceOf(AuthenticationError);
    await stranger.close();
  });
});

describe('config.worker_host', () => {
  it('sends a run to the worker host it names, and the server refuses an id it has no token for, naming the field', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Train the model', config: { worker_host: 'gpu' } });
    expect((await t.client.runs.get(run_id)).agent_config?.worker_host).toBe('gpu');
    await t.client.runs.cancel(run_id);

    const refused = await t.client.runs.create({ prompt: 'Train the model', config: { worker_host: 'nowhere' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).issues.map((issue) => issue.path)).toContain('agent_config.worker_host');
  });
});
