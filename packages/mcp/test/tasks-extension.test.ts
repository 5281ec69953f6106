import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentRunsClient } from '@agent-runs/core';
import type { RunningServer } from '@agent-runs/server';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/experimental/tasks';
import { binEnv, connectStdio, startHttpBin, startRunsApi, textOf, type HttpBin, type StdioSession } from './support/mcp-harness.js';
import { connectTaskHost, TASKS_EXTENSION, type TaskHost } from './support/v2-clients.js';

const taskSchema = z.looseObject({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttlMs: z.number().nullable(),
  pollIntervalMs: z.number().optional(),
  result: z.looseObject({ structuredContent: z.record(z.string(), z.unknown()).optional() }).optional(),
  error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
});
type Task = z.infer<typeof taskSchema>;
const ack = z.looseObject({});

let api: RunningServer;
let runs: AgentRunsClient;
let http: HttpBin;

beforeAll(async () => {
  api = await startRunsApi();
  runs = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey });
  http = await startHttpBin(binEnv(api));
});
afterAll(async () => {
  await http?.close();
  await runs?.close();
  await api?.close();
});

const targets = {
  stdio: () => ({ env: binEnv(api) }),
  http: () => ({ url: http.url }),
};

/** Calls a tool as a task-aware host does: the answer is a task handle, read off the wire. */
async function startTask(host: TaskHost, name: string, args: Record<string, unknown>): Promise<Task> {
  const before = host.received.length;
  // SDK v2 2.4.0's callTool does not know `resultType: "task"` yet, and rejects it as unsupported.
  await expect(host.client.callTool({ name, arguments: args })).rejects.toThrow(/Unsupported result type 'task'/);
  const answer = host.received.slice(before).find((m) => m.result?.resultType === 'task');
  expect(answer, 'a CreateTaskResult on the wire').toBeDefined();
  return taskSchema.parse(answer!.result);
}

const getTask = (host: TaskHost, taskId: string) => host.client.request({ method: 'tasks/get', params: { taskId } }, taskSchema);

describe.each(['stdio', 'http'] as const)('tasks on 2026-07-28 (the io.modelcontextprotocol/tasks extension) over %s', (transport) => {
  let host: TaskHost;
  beforeAll(async () => {
    host = await connectTaskHost(targets[transport]());
  });
  afterAll(async () => {
    await host?.close();
  });

  it('declares the extension in server/discover', () => {
    expect((host.client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions?.[TASKS_EXTENSION]).toEqual({});
  });

  it('runs create_run with wait as a task: the host leaves, comes back, reads progress, then the result', async () => {
    const task = await startTask(host, 'create_run', { prompt: `Task ${transport} [simulate 1500ms]`, wait: true });
    expect(task).toMatchObject({ status: 'working', pollIntervalMs: expect.any(Number) });
    expect(task.ttlMs).toBeGreaterThanOrEqual(10 * 60_000);
    // Over HTTP the host comes back on a new connection; nothing ties the task to the first.
    const back = transport === 'http' ? await connectTaskHost(targets.http()) : host;
    await expect.poll(async () => (await getTask(back, task.taskId)).statusMessage ?? '', { timeout: 5_000, interval: 50 }).toMatch(/^Run \S+ is INPROGRESS · /);
    await expect.poll(async () => (await getTask(back, task.taskId)).status, { timeout: 10_000, interval: 100 }).toBe('completed');
    const done = await getTask(back, task.taskId);
    expect(done.result?.structuredContent).toMatchObject({ state: 'QUEUED', wait: { finished: true, run: { state: 'SUCCEEDED' } } });
    expect(textOf(done.result!)).toMatch(/^Started run \S+ \(state QUEUED\)\.\nRun \S+ succeeded\./);
    if (back !== host) await back.close();
  });

  it('tasks/cancel of a create_run task cancels the run', async () => {
    const task = await startTask(host, 'create_run', { prompt: `Cancel ${transport} [simulate 60s]`, wait: true });
    await expect(host.client.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, ack)).resolves.toBeDefined();
    const cancelled = await getTask(host, task.taskId);
    expect(cancelled.status).toBe('cancelled');
    const run_id = /Run (\S+) was cancelled/.exec(cancelled.statusMessage ?? '')?.[1];
    expect(run_id).toBeTruthy();
    await expect.poll(async () => (await runs.runs.get(run_id!)).state, { timeout: 5_000 }).toBe('CANCELLED');
  });

  it('runs wait_for_run as a task; tasks/cancel stops the wait, not the run', async () => {
    const { run_id } = await runs.runs.create({ prompt: `Wait ${transport} [simulate 60s]` });
    const task = await startTask(host, 'wait_for_run', { run_id });
    await expect.poll(async () => (await getTask(host, task.taskId)).statusMessage ?? '', { timeout: 5_000, interval: 50 }).toContain(`Run ${run_id} is `);
    await host.client.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, ack);
    expect((await getTask(host, task.taskId)).status).toBe('cancelled');
    expect((await runs.runs.get(run_id)).state).not.toBe('CANCELLED');
    await runs.runs.cancel(run_id);
  });

  it('answers at once, without a task, a call that does not wait or that fails before waiting', async () => {
    const created = await host.client.callTool({ name: 'create_run', arguments: { prompt: `No wait ${transport}` } });
    expect(created.structuredContent).toMatchObject({ state: 'QUEUED' });
    const missing = await host.client.callTool({ name: 'wait_for_run', arguments: { run_id: '00000000-0000-4000-8000-000000000000' } });
    expect(missing.isError).toBe(true);
  });

  it('pushes each change of a task named on a listen stream as notifications/tasks, up to its end', async () => {
    const task = await startTask(host, 'create_run', { prompt: `Listen task ${transport} [simulate 1500ms]`, wait: true });
    const stream = new AbortController();
    const listening = host.client.request({ method: 'subscriptions/listen', params: { notifications: { taskIds: [task.taskId, 'no-such-task'] } } }, ack, { signal: stream.signal });
    listening.catch(() => {});
    const acked = () => host.received.find((m) => m.method === 'notifications/subscriptions/acknowledged' && JSON.stringify(m.params).includes(task.taskId));
    await expect.poll(acked, { timeout: 5_000, interval: 20 }).toBeDefined();
    expect(acked()!.params).toMatchObject({ notifications: { taskIds: [task.taskId] } });
    const pushed = () => host.received.filter((m) => m.method === 'notifications/tasks' && m.params?.taskId === task.taskId).map((m) => taskSchema.parse(m.params));
    await expect.poll(() => pushed().at(-1)?.status, { timeout: 10_000, interval: 50 }).toBe('completed');
    // Each carries the task as tasks/get shows it: the run's states on the way, then the result.
    expect(pushed().some((t) => t.status === 'working' && /^Run \S+ is (QUEUED|INPROGRESS) · /.test(t.statusMessage ?? ''))).toBe(true);
    expect(pushed().at(-1)!.result?.structuredContent).toMatchObject({ wait: { finished: true, run: { state: 'SUCCEEDED' } } });
    const { _meta: _stamp, ...last } = pushed().at(-1)!;
    const { _meta: _info, ...got } = await getTask(host, task.taskId);
    expect(last).toEqual(got);
    expect(_stamp).toEqual({ 'io.modelcontextprotocol/subscriptionId': expect.anything() });
    stream.abort();
  });

  it('acknowledges tasks/update, and refuses an unknown task with -32602', async () => {
    const { run_id } = await runs.runs.create({ prompt: `Update ${transport} [simulate 200ms]` });
    const task = await startTask(host, 'wait_for_run', { run_id });
    await expect(host.client.request({ method: 'tasks/update', params: { taskId: task.taskId, inputResponses: { nothing: { action: 'accept' } } } }, ack)).resolves.toBeDefined();
    await expect(getTask(host, 'no-such-task')).rejects.toMatchObject({ code: -32602 });
    await expect(host.client.request({ method: 'tasks/cancel', params: { taskId: 'no-such-task' } }, ack)).rejects.toMatchObject({ code: -32602 });
  });
});

describe.each(['stdio', 'http'] as const)('a 2026-07-28 host without the tasks extension, over %s', (transport) => {
  let host: TaskHost;
  beforeAll(async () => {
    host = await connectTaskHost(targets[transport](), false);
  });
  afterAll(async () => {
    await host?.close();
  });

  it('gets plain results from the waiting tools', async () => {
    const created = await host.client.callTool({ name: 'create_run', arguments: { prompt: `Plain ${transport} [simulate 300ms]`, wait: true } });
    expect(created.structuredContent).toMatchObject({ wait: { finished: true, run: { state: 'SUCCEEDED' } } });
    expect(host.received.some((m) => m.result?.resultType === 'task')).toBe(false);
  });

  it('is refused tasks/get with -32021, naming the extension', async () => {
    await expect(getTask(host, 'any')).rejects.toMatchObject({ code: -32021 });
  });

  it('is refused task notifications on a listen stream with -32021', async () => {
    await expect(host.client.request({ method: 'subscriptions/listen', params: { notifications: { taskIds: ['any'] } } }, ack)).rejects.toMatchObject({ code: -32021 });
  });
});

describe('create_run with wait as a 2025-11-25 task (SDK v1 client over stdio)', () => {
  let session: StdioSession;
  beforeAll(async () => {
    session = await connectStdio(binEnv(api));
  });
  afterAll(async () => {
    await session?.close();
  });

  it('is offered as a task, reports the run, and delivers the result', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.find((t) => t.name === 'create_run')?.execution?.taskSupport).toBe('optional');
    const stream = session.client.experimental.tasks.callToolStream(
      { name: 'create_run', arguments: { prompt: 'Legacy task [simulate 600ms]', wait: true } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const kinds: string[] = [];
    let structured: unknown;
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === 'result') structured = message.result.structuredContent;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(structured).toMatchObject({ state: 'QUEUED', wait: { finished: true, run: { state: 'SUCCEEDED' } } });
  });

  it('cancels the run on tasks/cancel', async () => {
    const created = await session.client.request(
      { method: 'tools/call', params: { name: 'create_run', arguments: { prompt: 'Legacy cancel [simulate 60s]', wait: true }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    await expect.poll(async () => (await session.client.experimental.tasks.getTask(taskId)).statusMessage ?? '', { timeout: 5_000 }).toMatch(/^Run \S+ is /);
    const run_id = /^Run (\S+) is /.exec((await session.client.experimental.tasks.getTask(taskId)).statusMessage!)![1]!;
    expect((await session.client.experimental.tasks.cancelTask(taskId)).status).toBe('cancelled');
    await expect.poll(async () => (await runs.runs.get(run_id)).state, { timeout: 5_000 }).toBe('CANCELLED');
  });
});

describe('tasks/get over raw HTTP (2026-07-28)', () => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
  };
  const post = (method: string, params: Record<string, unknown>, name: string) =>
    fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
    });

  it('routes by Mcp-Name: the task id, or the request is refused', async () => {
    const { run_id } = await runs.runs.create({ prompt: 'Raw [simulate 60s]' });
    const call = await post('tools/call', { name: 'wait_for_run', arguments: { run_id } }, 'wait_for_run');
    const body = await call.text();
    const taskId = /"taskId":"([^"]+)"/.exec(body)?.[1];
    expect(body).toContain('"resultType":"task"');
    const good = await post('tasks/get', { taskId }, taskId!);
    expect(good.status).toBe(200);
    expect(await good.text()).toContain('"status":"working"');
    const wrong = await post('tasks/get', { taskId }, 'another-task');
    expect(wrong.status).toBe(400);
    await post('tasks/cancel', { taskId }, taskId!);
    await runs.runs.cancel(run_id);
  });
});
