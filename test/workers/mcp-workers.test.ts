import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binEnv, connectStdio, textOf, type StdioSession } from '../../packages/mcp/test/support/mcp-harness.js';
import { HOSTILE_VERSION, startWorkerServer } from './worker-server.js';

let t: Awaited<ReturnType<typeof startWorkerServer>>;
let mcp: StdioSession;
beforeAll(async () => {
  t = await startWorkerServer();
  mcp = await connectStdio(binEnv(undefined, t.env));
});
afterAll(async () => {
  await mcp?.close();
  await t?.close();
});

describe('workers over MCP', () => {
  it('list_workers is read-only, and lists a worker connected over the worker protocol', async () => {
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === 'list_workers');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });

    const none = await mcp.client.callTool({ name: 'list_workers', arguments: {} });
    expect(none.structuredContent).toEqual({ workers: [] });
    expect(textOf(none)).toMatch(/^No self-hosted worker is connected/);

    expect((await t.connectWorker({ version: HOSTILE_VERSION })).status).toBe(200);
    const listed = await mcp.client.callTool({ name: 'list_workers', arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent as { workers: unknown[] }).workers).toEqual([
      expect.objectContaining({ worker_host: 'gpu', instance_id: 'gpu-box-1', capacity: 4, running_runs: 0, draining: false, version: HOSTILE_VERSION }),
    ]);
    expect(textOf(listed)).toContain('1 worker process(es) connected:\n- gpu (instance gpu-box-1, version <img src=x onerror=alert(1)>\\e]0;pwned\\x07): 0/4 runs');
    expect(textOf(listed)).not.toMatch(/[\u001b\u0007]/);
  });

  it('create_run takes worker_host, and an unknown one points at list_workers', async () => {
    const created = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Train the model', worker_host: 'gpu' } });
    expect(created.isError).toBeFalsy();
    const { run_id } = created.structuredContent as { run_id: string };
    expect((await t.client.runs.get(run_id)).agent_config?.worker_host).toBe('gpu');
    await t.client.runs.cancel(run_id);

    const refused = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Train the model', worker_host: 'nowhere' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/worker_host/);
    expect(textOf(refused)).toContain('Call list_workers for the self-hosted workers connected now.');
  });
});
