/**
 * The MCP server's costs: time from spawning the bin to its first answer over stdio, on
 * revision 2025-11-25 (`initialize`) and 2026-07-28 (`server/discover`), beside a bare
 * `node -e ''` spawn; what a `get_run` tool call adds over the bare core `client.runs.get`
 * against the same local server; and how long after the run's own event (seen by a core
 * client on the event stream, side by side) a wait's progress notification reaches the host,
 * and how long after it a 2026-07-28 task's status (the tasks extension) reaches the host: polled
 * with tasks/get, or pushed as notifications/tasks on a subscriptions/listen stream.
 */
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { z } from 'zod';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer } from '@agent-runs/server';
import type { BenchRow } from './bench-row.js';

/** The launcher hosts run (it turns on Node's compile cache before loading the bundle). */
const BIN = fileURLToPath(new URL('../packages/mcp/bin/agent-runs-mcp.js', import.meta.url));
/** Every spawn, `node -e ''` included, on this Node (AGENT_RUNS_BENCH_NODE) or the bench's own. */
const NODE = process.env.AGENT_RUNS_BENCH_NODE || process.execPath;
const NODE_VERSION = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
/** Node 22.1+ has a compile cache, which the launcher turns on; a host's first start runs without it. */
const HAS_COMPILE_CACHE = (([major, minor]) => major! > 22 || (major === 22 && minor! >= 1))(NODE_VERSION.slice(1).split('.').map(Number));
const SPAWNS = 15;
/**
 * The start-up target: 150 ms on the machine where `node -e ''` took about 45 ms. It is held
 * as that ratio to the `node -e ''` spawn measured beside it, so that the figure says the
 * same on a slower or a faster machine.
 */
const START_TARGET_RATIO = 150 / 45;
const START_TARGET = `<= ${START_TARGET_RATIO.toFixed(2)}x (150 ms at 45 ms node -e '')`;
/** How often the task-aware host below polls tasks/get: eagerly, and as often as the server suggests. */
const TASK_POLLS_MS = [20, 250];
const CALLS = 1_000;
const ROUNDS = 5;

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`;

const DISCOVER = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
})}\n`;

/** Milliseconds from spawn to the first stdout line (with `answer`), or to exit (without). */
function spawnOnce(args: string[], answer: boolean, env: NodeJS.ProcessEnv, request = INITIALIZE): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(NODE, args, { stdio: ['pipe', 'pipe', 'ignore'], env });
    child.on('error', reject);
    if (answer) {
      child.stdin.write(request);
      child.stdout.once('data', () => {
        resolve(performance.now() - started);
        child.kill();
      });
    } else {
      child.once('exit', () => resolve(performance.now() - started));
    }
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timeLoop(count: number, fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * A command agent prints three lines 1.1 s apart (past the once-a-second bound on output
 * progress), after 1.5 s in which the host's wait has begun; a core client follows the run's event stream while an MCP host waits on it.
 * Each progress message is matched to the event it reports: the run's state or the line.
 */
async function progressLag(): Promise<{ count: number; worstMs: number; medianMs: number }> {
  const api = await startServer({ port: 0, storage: 'memory', quiet: true, executor: 'command', command: 'sleep 1.5; echo one; sleep 1.1; echo two; sleep 1.1; echo three' });
  const env = { PATH: process.env.PATH ?? '', AGENT_RUNS_BASE_URL: api.baseURL, AGENT_RUNS_API_KEY: api.apiKey, AGENT_RUNS_MCP_HEARTBEAT: '60s' };
  const client = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey });
  const host = new Client({ name: 'bench', version: '1' });
  await host.connect(new StdioClientTransport({ command: NODE, args: [BIN], env }));
  const { run_id } = await client.runs.create({ prompt: 'Progress' });
  const seen = new Map<string, number>();
  const events = followEvents(client, run_id, seen);
  const reached = new Map<string, number>();
  let following = Number.POSITIVE_INFINITY;
  await host.callTool({ name: 'wait_for_run', arguments: { run_id } }, undefined, {
    onprogress: ({ message = '' }) => {
      following = Math.min(following, performance.now());
      const [state, , line] = message.split(' · ');
      for (const key of [state, line]) if (key && !reached.has(key)) reached.set(key, performance.now());
    },
    timeout: 30_000,
  });
  await events;
  await host.close();
  await client.close();
  await api.close();
  // Only events after the wait's first answer: those before it reach the host as a replay, not as news.
  const lags = [...reached].flatMap(([key, at]) => (seen.has(key) && seen.get(key)! > following ? [Math.max(0, at - seen.get(key)!)] : []));
  return { count: lags.length, worstMs: Math.max(...lags), medianMs: median(lags) };
}

/** The first moment each run event (its state, a line of output) is seen on the run's stream. */
function followEvents(client: AgentRunsClient, runId: string, seen: Map<string, number>): Promise<void> {
  return (async () => {
    for await (const event of client.runs.events(runId)) {
      const key = event.type === 'run' ? event.data.state : event.type === 'output' ? event.data.text.trim().split('\n').at(-1) : undefined;
      if (key && !seen.has(key)) seen.set(key, performance.now());
    }
  })();
}

/**
 * The same command agent, waited on by a 2026-07-28 host with the tasks extension: its
 * wait_for_run answers a task, and the host either polls tasks/get every `pollMs`, or
 * (`'listen'`) opens a subscriptions/listen stream naming the task and reads the
 * notifications/tasks pushed on it. Each status message (`Run … is INPROGRESS · 3s · two`)
 * is matched to the event it reports.
 */
async function taskProgressLag(pollMs: number | 'listen'): Promise<{ pollMs: number | 'listen'; count: number; worstMs: number; medianMs: number }> {
  const api = await startServer({ port: 0, storage: 'memory', quiet: true, executor: 'command', command: 'sleep 1.5; echo one; sleep 1.1; echo two; sleep 1.1; echo three' });
  const env = { PATH: process.env.PATH ?? '', AGENT_RUNS_BASE_URL: api.baseURL, AGENT_RUNS_API_KEY: api.apiKey, AGENT_RUNS_MCP_HEARTBEAT: '60s' };
  const client = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey });
  const host = new ClientV2(
    { name: 'bench', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
  );
  const transport = new StdioClientTransportV2({ command: NODE, args: [BIN], env });
  await host.connect(transport);
  const reached = new Map<string, number>();
  const note = (statusMessage = '') => {
    const [state, , line] = statusMessage.replace(/^Run \S+ is /, '').split(' · ');
    for (const key of [state, line]) if (key && !reached.has(key)) reached.set(key, performance.now());
  };
  // SDK v2 2.4.0's callTool rejects a task answer, and knows no notifications/tasks; both are read off the wire.
  let taskId: string | undefined;
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  const handle = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    const { result, method, params } = message as { result?: { resultType?: string; taskId?: string }; method?: string; params?: { status?: string; statusMessage?: string } };
    if (result?.resultType === 'task') taskId = result.taskId;
    if (method === 'notifications/tasks') {
      note(params?.statusMessage);
      if (params?.status !== 'working') ended();
      return;
    }
    handle?.(message);
  };
  const { run_id } = await client.runs.create({ prompt: 'Task progress' });
  const seen = new Map<string, number>();
  const events = followEvents(client, run_id, seen);
  await host.callTool({ name: 'wait_for_run', arguments: { run_id } }).catch(() => {});
  if (!taskId) throw new Error('wait_for_run did not answer a task');
  const following = performance.now();
  if (pollMs === 'listen') {
    const stream = new AbortController();
    host.request({ method: 'subscriptions/listen', params: { notifications: { taskIds: [taskId] } } }, z.looseObject({}), { signal: stream.signal, timeout: 30_000 }).catch(() => {});
    await end;
    stream.abort();
  } else {
    const task = z.looseObject({ status: z.string(), statusMessage: z.string().optional() });
    for (;;) {
      const { status, statusMessage } = await host.request({ method: 'tasks/get', params: { taskId } }, task);
      note(statusMessage);
      if (status !== 'working') break;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
  await events;
  await host.close();
  await client.close();
  await api.close();
  const lags = [...reached].flatMap(([key, at]) => (seen.has(key) && seen.get(key)! > following ? [Math.max(0, at - seen.get(key)!)] : []));
  return { pollMs, count: lags.length, worstMs: Math.max(...lags), medianMs: median(lags) };
}

export default async function mcpBench(): Promise<BenchRow[]> {
  const api = await startServer({ port: 0, storage: 'memory', simulatedDurationMs: 50, quiet: true });
  const env = { PATH: process.env.PATH ?? '', AGENT_RUNS_BASE_URL: api.baseURL, AGENT_RUNS_API_KEY: api.apiKey };

  // Startup: alternate the two spawns so that machine load hits both alike.
  const bare: number[] = [];
  const mcp: number[] = [];
  const modern: number[] = [];
  const uncached: number[] = [];
  const noCache = { ...env, NODE_DISABLE_COMPILE_CACHE: '1' };
  await spawnOnce([BIN], true, env); // warm the file cache (and fill the compile cache)
  for (let i = 0; i < SPAWNS; i++) {
    bare.push(await spawnOnce(['-e', ''], false, env));
    mcp.push(await spawnOnce([BIN], true, env));
    modern.push(await spawnOnce([BIN], true, env, DISCOVER));
    if (HAS_COMPILE_CACHE) uncached.push(await spawnOnce([BIN], true, noCache));
  }
  const bareMs = median(bare);
  const initMs = median(mcp);
  const discoverMs = median(modern);
  const on = `, Node ${NODE_VERSION.slice(1)}`;

  // Tool call overhead: the same run fetched through MCP and through core directly.
  const client = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey });
  const { run_id } = await client.runs.create({ prompt: 'Benchmark [simulate 10ms]' });
  const mcpClient = new Client({ name: 'bench', version: '1' });
  await mcpClient.connect(new StdioClientTransport({ command: NODE, args: [BIN], env }));
  const viaCore = () => client.runs.get(run_id);
  const viaMcp = () => mcpClient.callTool({ name: 'get_run', arguments: { run_id } });
  await timeLoop(200, viaCore);
  await timeLoop(200, viaMcp);
  let coreMs = 0;
  let toolMs = 0;
  for (let round = 0; round < ROUNDS; round++) {
    coreMs += await timeLoop(CALLS / ROUNDS, viaCore);
    toolMs += await timeLoop(CALLS / ROUNDS, viaMcp);
  }
  await mcpClient.close();
  await client.close();
  await api.close();
  const progress = await progressLag();
  const taskProgress = [];
  for (const pollMs of [...TASK_POLLS_MS, 'listen' as const]) taskProgress.push(await taskProgressLag(pollMs));

  const overhead = (toolMs - coreMs) / CALLS;
  return [
    {
      suite: 'mcp',
      measure: `spawn to initialize answer over stdio (median of ${SPAWNS}${on})`,
      value: `${initMs.toFixed(0)} ms`,
      baseline: `${bareMs.toFixed(0)} ms node -e ''`,
      ratio: `${(initMs / bareMs).toFixed(2)}x`,
      target: START_TARGET,
      met: initMs / bareMs <= START_TARGET_RATIO,
    },
    {
      suite: 'mcp',
      measure: `spawn to server/discover answer over stdio, 2026-07-28 (median of ${SPAWNS}${on})`,
      value: `${discoverMs.toFixed(0)} ms`,
      baseline: `${bareMs.toFixed(0)} ms node -e ''`,
      ratio: `${(discoverMs / bareMs).toFixed(2)}x`,
      target: START_TARGET,
      met: discoverMs / bareMs <= START_TARGET_RATIO,
    },
    ...(HAS_COMPILE_CACHE
      ? [
          {
            suite: 'mcp',
            measure: `spawn to initialize answer, compile cache off: a host's first start (median of ${SPAWNS}${on})`,
            value: `${median(uncached).toFixed(0)} ms`,
            baseline: `${bareMs.toFixed(0)} ms node -e ''`,
            ratio: `${(median(uncached) / bareMs).toFixed(2)}x`,
            target: '- (once per machine and version)',
          },
        ]
      : []),
    {
      suite: 'mcp',
      measure: `get_run tool call over core runs.get (mean of ${CALLS})`,
      value: `+${overhead.toFixed(2)} ms (${(toolMs / CALLS).toFixed(2)} ms per call)`,
      baseline: `${(coreMs / CALLS).toFixed(2)} ms runs.get`,
      ratio: `${(toolMs / coreMs).toFixed(2)}x`,
      target: '<= 1 ms',
      met: overhead <= 1,
    },
    {
      suite: 'mcp',
      measure: `wait_for_run progress after the run's event (worst of ${progress.count}: state changes and output lines)`,
      value: `${progress.worstMs.toFixed(0)} ms (median ${progress.medianMs.toFixed(0)} ms)`,
      baseline: 'the event on the run stream, core client',
      ratio: '-',
      target: '<= 50 ms',
      met: progress.worstMs <= 50,
    },
    ...taskProgress.map((lag) => ({
      suite: 'mcp',
      measure:
        lag.pollMs === 'listen'
          ? `2026-07-28 task status pushed on a listen stream (notifications/tasks) after the run's event (worst of ${lag.count})`
          : `2026-07-28 task status (tasks/get every ${lag.pollMs} ms) after the run's event (worst of ${lag.count})`,
      value: `${lag.worstMs.toFixed(0)} ms (median ${lag.medianMs.toFixed(0)} ms)`,
      baseline: 'the event on the run stream, core client',
      ratio: '-',
      // A polling host learns of a change only at its next poll, so only the pushed status is held to 50 ms; the polls are shown beside it.
      target: lag.pollMs === 'listen' ? '<= 50 ms' : '- (a polling host)',
      ...(lag.pollMs === 'listen' ? { met: lag.worstMs <= 50 } : {}),
    })),
  ];
}
