import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningServer } from '@agent-runs/server';
import {
  binEnv,
  connectStdio,
  startCountingProxy,
  startRunsApi,
  textOf,
  type CountingProxy,
  type StdioSession,
} from './support/mcp-harness.js';

let api: RunningServer;
let proxy: CountingProxy;
let mcp: StdioSession;

beforeAll(async () => {
  api = await startRunsApi();
  proxy = await startCountingProxy(api);
  mcp = await connectStdio(binEnv(api, { AGENT_RUNS_BASE_URL: proxy.baseURL, AGENT_RUNS_MCP_HEARTBEAT: '100ms' }));
});

afterAll(async () => {
  await mcp?.close();
  await proxy?.close();
  await api?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Fails if the run is still polled over the next 1.2 s (a live wait polls at least twice in that time). */
async function expectNoMorePolls(runId: string): Promise<void> {
  await sleep(100);
  const before = proxy.count(`/agent/runs/${runId}`);
  await sleep(1200);
  expect(proxy.count(`/agent/runs/${runId}`)).toBe(before);
}

async function createRun(prompt: string): Promise<string> {
  const result = await mcp.client.callTool({ name: 'create_run', arguments: { prompt } });
  return (result.structuredContent as { run_id: string }).run_id;
}

interface WaitOutput {
  run_id: string;
  finished: boolean;
  timed_out: boolean;
  note?: string;
  run?: { state: string; status_message?: { message: string } };
}

describe('wait_for_run', () => {
  it('returns the run once it succeeds', async () => {
    const run_id = await createRun('Succeed [simulate 200ms]');
    const result = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ run_id, finished: true, timed_out: false, run: { state: 'SUCCEEDED' } });
    expect(textOf(result)).toContain(`Run ${run_id} succeeded.`);
  });

  it('identifies itself to the API in the User-Agent', () => {
    expect(proxy.userAgents().length).toBeGreaterThan(0);
    expect(proxy.userAgents().every((ua) => /agent-runs-mcp\/\d+\.\d+\.\d+/.test(ua))).toBe(true);
  });

  it('reports a failure with its status message and a next step', async () => {
    const run_id = await createRun('Fail [simulate fail 100ms]');
    const result = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id } });
    const output = result.structuredContent as WaitOutput;
    expect(output.run?.state).toBe('FAILED');
    expect(output.run?.status_message?.message).toBeTruthy();
    expect(textOf(result)).toContain('See the status message');
  });

  it('tells the assistant a blocked run needs a person', async () => {
    const run_id = await createRun('Block [simulate block 100ms]');
    const result = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id } });
    expect((result.structuredContent as WaitOutput).run?.state).toBe('BLOCKED');
    expect(textOf(result)).toContain('needs a person');
  });

  it('answers an unknown run id with an error pointing to list_runs, without waiting', async () => {
    const started = Date.now();
    const result = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id: 'no-such-run' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Could not wait for run no-such-run: 404 .*Use list_runs/s);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('on its own timeout returns the last run seen with a note, not an error', async () => {
    const run_id = await createRun('Hang [simulate hang]');
    const result = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id, timeout: '400ms' } });
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent as WaitOutput;
    expect(output).toMatchObject({ run_id, finished: false, timed_out: true, run: { state: 'INPROGRESS' } });
    expect(output.note).toContain('Call wait_for_run again');
    expect(textOf(result)).toContain('is still INPROGRESS');
    await mcp.client.callTool({ name: 'cancel_run', arguments: { run_id } });
  });

  it('sends progress on each state change and heartbeats in between', async () => {
    const run_id = await createRun('Slow [simulate 800ms]');
    const before = mcp.received.length;
    const result = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id } }, undefined, {
      onprogress: () => {},
      resetTimeoutOnProgress: true,
    });
    expect((result.structuredContent as WaitOutput).run?.state).toBe('SUCCEEDED');
    // Read off the wire: the SDK's client drops a progress notification that arrives in the same
    // read as the result, so what its onprogress sees depends on timing.
    const updates = mcp.received
      .slice(before)
      .flatMap((m) => ('method' in m && m.method === 'notifications/progress' ? [m.params as { progress: number; message?: string }] : []));
    // After the state and elapsed time, the newest line of the agent's output, once there is one.
    const inProgress = updates.filter((u) => /^INPROGRESS · \d+(ms|s)( · .+)?$/.test(u.message ?? ''));
    // 800 ms with a 100 ms heartbeat: the state change plus several heartbeats.
    expect(inProgress.length).toBeGreaterThanOrEqual(3);
    expect(updates.some((u) => u.message?.startsWith('SUCCEEDED · '))).toBe(true);
    const progress = updates.map((u) => u.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBe(progress.length);
  });

  it('stops waiting when the request is cancelled, and the server keeps serving', async () => {
    const run_id = await createRun('Hang to cancel [simulate hang]');
    const controller = new AbortController();
    const call = mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id } }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort('user stopped'), 300);
    await expect(call).rejects.toThrow();
    await expectNoMorePolls(run_id);
    // The wait behind the call is a task in the server; it must end as cancelled.
    await expect
      .poll(async () => (await mcp.client.experimental.tasks.listTasks()).tasks.map((t) => t.status), { timeout: 3000 })
      .toContain('cancelled');
    const still = await mcp.client.callTool({ name: 'get_run', arguments: { run_id } });
    expect((still.structuredContent as { state: string }).state).toBe('INPROGRESS');
    await mcp.client.callTool({ name: 'cancel_run', arguments: { run_id } });
  });
});

describe('wait_for_run as an MCP task', () => {
  it('creates a task, reports its status, and delivers the result', async () => {
    const run_id = await createRun('Task me [simulate 600ms]');
    const stream = mcp.client.experimental.tasks.callToolStream(
      { name: 'wait_for_run', arguments: { run_id } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const kinds: string[] = [];
    const statusMessages: string[] = [];
    let structured: unknown;
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === 'taskStatus' && message.task.statusMessage) statusMessages.push(message.task.statusMessage);
      if (message.type === 'result') structured = message.result.structuredContent;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds).toContain('taskStatus');
    expect(kinds.at(-1)).toBe('result');
    expect(structured).toMatchObject({ run_id, finished: true, run: { state: 'SUCCEEDED' } });
    expect(statusMessages.some((m) => m.startsWith(`Run ${run_id} is `))).toBe(true);
  });

  it('stops the wait on tasks/cancel', async () => {
    const run_id = await createRun('Task to cancel [simulate hang]');
    const created = await mcp.client.request(
      { method: 'tools/call', params: { name: 'wait_for_run', arguments: { run_id }, task: { ttl: 60_000 } } },
      (await import('@modelcontextprotocol/sdk/experimental/tasks')).CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    expect((await mcp.client.experimental.tasks.getTask(taskId)).status).toBe('working');
    const cancelled = await mcp.client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    await expectNoMorePolls(run_id);
    expect((await mcp.client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
    await mcp.client.callTool({ name: 'cancel_run', arguments: { run_id } });
  });
});
