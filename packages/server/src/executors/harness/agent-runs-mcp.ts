import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AgentApiAccess } from '../run-executor.js';

/** The name of the MCP server entry a harness run gets for this server's own API. */
export const AGENT_RUNS_MCP_NAME = 'agent-runs';

/**
 * The bundled MCP server of `@agent-runs/mcp` where it is installed beside the server (a
 * clone of this repository, or both packages installed), else undefined: the server does
 * not depend on it, and a harness run then gets its variables without the tools.
 */
export function findAgentRunsMcp(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve('@agent-runs/mcp/package.json');
    const bundle = join(dirname(pkg), 'dist', 'agent-runs-mcp.mjs');
    return existsSync(bundle) ? bundle : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The run's MCP servers with one more, `agent-runs`: our MCP server on this server's URL,
 * with the run token as its key, so the harness's model gets tools to start child runs,
 * wait for them and read them (within the token's scope). A run that names an
 * `agent-runs` server itself keeps its own.
 */
export function withAgentRunsMcp(
  servers: Record<string, unknown> | undefined,
  api: AgentApiAccess | undefined,
  bundle: string | undefined,
  runId: string,
): Record<string, unknown> | undefined {
  if (!api || !bundle || servers?.[AGENT_RUNS_MCP_NAME] !== undefined) return servers;
  // AGENT_RUNS_RUN_ID: the run whose messages send_message and read_messages speak for.
  // `api.url` is the server's origin (what AGENT_RUNS_API_URL holds); a client's base URL is its API's root under it.
  const entry = { command: process.execPath, args: [bundle], env: { AGENT_RUNS_BASE_URL: `${api.url}/api/v1`, AGENT_RUNS_API_KEY: api.token, AGENT_RUNS_RUN_ID: runId } };
  return { ...servers, [AGENT_RUNS_MCP_NAME]: entry };
}

/** What the sandbox must let the agent read for the entry to start: the package (the bundle reads its package.json; Node's own prefix is bound already). */
export function agentRunsMcpFiles(bundle: string | undefined): string[] {
  return bundle ? [dirname(dirname(bundle))] : [];
}
