/**
 * The MCP server's costs: time from spawning the bin to its `initialize` answer over stdio
 * (beside a bare `node -e ''` spawn), and what a `get_run` tool call adds over the bare
 * core `client.runs.get` against the same local server.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer } from '@agent-runs/server';
import type { BenchRow } from './bench-row.js';

const BIN = fileURLToPath(new URL('../packages/mcp/dist/agent-runs-mcp.mjs', import.meta.url));
const SPAWNS = 15;
const CALLS = 1_000;
const ROUNDS = 5;

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`;

/** Milliseconds from spawn to the first stdout line (with `answer`), or to exit (without). */
function spawnOnce(args: string[], answer: boolean, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], env });
    child.on('error', reject);
    if (answer) {
      child.stdin.write(INITIALIZE);
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

export default async function mcpBench(): Promise<BenchRow[]> {
  const api = await startServer({ port: 0, storage: 'memory', simulatedDurationMs: 50, quiet: true });
  const env = { PATH: process.env.PATH ?? '', AGENT_RUNS_BASE_URL: api.baseURL, AGENT_RUNS_API_KEY: api.apiKey };

  // Startup: alternate the two spawns so that machine load hits both alike.
  const bare: number[] = [];
  const mcp: number[] = [];
  await spawnOnce([BIN], true, env); // warm the file cache
  for (let i = 0; i < SPAWNS; i++) {
    bare.push(await spawnOnce(['-e', ''], false, env));
    mcp.push(await spawnOnce([BIN], true, env));
  }
  const bareMs = median(bare);
  const initMs = median(mcp);

  // Tool call overhead: the same run fetched through MCP and through core directly.
  const client = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey });
  const { run_id } = await client.runs.create({ prompt: 'Benchmark [simulate 10ms]' });
  const mcpClient = new Client({ name: 'bench', version: '1' });
  await mcpClient.connect(new StdioClientTransport({ command: process.execPath, args: [BIN], env }));
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

  const overhead = (toolMs - coreMs) / CALLS;
  return [
    {
      suite: 'mcp',
      measure: `spawn to initialize answer over stdio (median of ${SPAWNS})`,
      value: `${initMs.toFixed(0)} ms`,
      baseline: `${bareMs.toFixed(0)} ms node -e ''`,
      ratio: `${(initMs / bareMs).toFixed(2)}x`,
      target: '<= 300 ms',
      met: initMs <= 300,
    },
    {
      suite: 'mcp',
      measure: `get_run tool call over core runs.get (mean of ${CALLS})`,
      value: `+${overhead.toFixed(2)} ms (${(toolMs / CALLS).toFixed(2)} ms per call)`,
      baseline: `${(coreMs / CALLS).toFixed(2)} ms runs.get`,
      ratio: `${(toolMs / coreMs).toFixed(2)}x`,
      target: '<= 5 ms',
      met: overhead <= 5,
    },
  ];
}
