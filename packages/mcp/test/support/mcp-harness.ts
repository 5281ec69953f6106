import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AgentRunsClient } from '@agent-runs/core';
import { createMcpServer, serveHttp, TaskRegistry, type HttpServeOptions, type RunningHttpServer } from '@agent-runs/mcp';
import { startServer, type RunningServer } from '@agent-runs/server';
import { startForwardingProxy } from '../../../../test/support/forwarding-proxy.js';

/** The built bin, as a host launches it. */
export const BIN = fileURLToPath(new URL('../../dist/agent-runs-mcp.mjs', import.meta.url));

/** A local Runs API in memory; simulated runs take 200 ms unless their prompt says otherwise. */
export function startRunsApi(): Promise<RunningServer> {
  return startServer({ port: 0, storage: 'memory', simulatedDurationMs: 200, concurrency: 4, quiet: true });
}

/** Environment for the bin: only what it needs, so a developer's own keys never leak in. */
export function binEnv(api: RunningServer | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    ...(api ? { AGENT_RUNS_BASE_URL: api.baseURL, AGENT_RUNS_API_KEY: api.apiKey } : {}),
    AGENT_RUNS_MCP_POLL_INTERVAL: '50ms',
    ...extra,
  };
}

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** Every message the server sent, as it came off the wire (before the client handles it). */
  received: JSONRPCMessage[];
  close(): Promise<void>;
}

/** Launches the bin over stdio and connects the SDK's own client to it. */
export async function connectStdio(env: Record<string, string>, args: string[] = []): Promise<StdioSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'agent-runs-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  const received: JSONRPCMessage[] = [];
  const handle = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    received.push(message);
    handle?.(message);
  };
  return { client, transport, stderr: () => stderr, received, close: () => client.close() };
}

export interface HttpBin {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  close(): Promise<void>;
}

/** Launches the bin with --http on a free port and returns the URL it printed. */
export async function startHttpBin(env: Record<string, string>, args: string[] = []): Promise<HttpBin> {
  const child = spawn(process.execPath, [BIN, '--http', '--port', '0', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed; stderr: ${stderr}`)), 10_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /serving MCP over Streamable HTTP at (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}; stderr: ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Headers a raw Streamable HTTP POST needs. */
export const MCP_POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface InProcessHttp {
  api: RunningServer;
  mcp: RunningHttpServer;
  close(): Promise<void>;
}

/**
 * A Runs API and a read-only MCP server over HTTP in this process, for session limits and
 * timeouts a test sets directly (`maxSessions`, `sessionIdleMs`).
 */
export async function startInProcessHttp(
  options: Omit<HttpServeOptions, 'port' | 'createServer'> = {},
): Promise<InProcessHttp> {
  const api = await startRunsApi();
  const client = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey });
  const ctx = { client, tasks: new TaskRegistry(), heartbeatMs: 1_000, pollIntervalMs: 50, readOnly: true };
  const mcp = await serveHttp({ ...options, port: 0, createServer: (era) => createMcpServer(ctx, era) });
  return {
    api,
    mcp,
    close: async () => {
      await mcp.close();
      ctx.tasks.close();
      await client.close();
      await api.close();
    },
  };
}

/** Connects the SDK's client over Streamable HTTP, with optional extra headers (a bearer token). */
export async function connectHttp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'agent-runs-mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** The text of a tool result's first content item. */
export function textOf(result: object): string {
  const content = (result as { content?: unknown }).content as Array<{ type: string; text?: string }> | undefined;
  return content?.find((c) => c.type === 'text')?.text ?? '';
}

export interface CountingProxy {
  /** Base URL (ending in /api/v1) to give the bin instead of the API's own. */
  baseURL: string;
  /** How many requests so far had a path containing `fragment`. */
  count(fragment: string): number;
  /** Every User-Agent seen. */
  userAgents(): string[];
  close(): Promise<void>;
}

/** A loopback proxy in front of the API that counts requests, to see when a wait stops polling. */
export async function startCountingProxy(api: RunningServer): Promise<CountingProxy> {
  const proxy = await startForwardingProxy(api.baseURL);
  return {
    baseURL: proxy.baseURL,
    count: (fragment) => proxy.requests.filter((p) => p.includes(fragment)).length,
    userAgents: () => [...proxy.userAgents],
    close: () => proxy.close(),
  };
}
