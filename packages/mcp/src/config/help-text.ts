import { API_KEY_VARIABLES, ENV } from '@agent-runs/core';
import { DEFAULT_HEARTBEAT_MS, DEFAULT_POLL_INTERVAL_MS } from '../context.js';
import { DEFAULT_MAX_CLIENT_STREAMS, DEFAULT_MAX_SESSION_STREAMS, DEFAULT_MAX_SESSIONS } from '../http/http-limits.js';
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, MCP_ENV } from './cli-options.js';

export function helpText(version: string): string {
  return `agent-runs-mcp ${version}: cloud agent runs as MCP tools and resources

Usage:
  agent-runs-mcp [options]            serve MCP over stdio (what desktop hosts launch)
  agent-runs-mcp --http [options]     serve MCP over Streamable HTTP at /mcp

Options:
  --base-url <url>        Runs API base address ending in /api/v1 (env ${ENV.baseURL.join(', ')})
  --api-key <key>         API key (env ${API_KEY_VARIABLES}); prefer the env variable
  --read-only             offer only the tools that change nothing (the list_*
                          tools, get_run, get_run_output, get_run_conversation
                          and wait_for_run)
  --heartbeat <duration>  longest silence between wait_for_run progress notifications
                          (env ${MCP_ENV.heartbeat}, default ${DEFAULT_HEARTBEAT_MS / 1000}s)
  --poll-interval <dur>   first delay between polls of a waited run, growing to 10s
                          (env ${MCP_ENV.pollInterval}, default ${DEFAULT_POLL_INTERVAL_MS / 1000}s)
  -h, --help              show this help
  -v, --version           print the version

With --http:
  --port <n>              port (default ${DEFAULT_HTTP_PORT}; 0 picks a free one)
  --host <address>        address to bind (default ${DEFAULT_HTTP_HOST}, this machine only)
  --auth-token <token>    require Authorization: Bearer <token> (env ${MCP_ENV.authToken})
  --allowed-host <h:p>    also accept this Host header (repeatable; loopback names are always accepted)
  --allowed-origin <url>  also accept this Origin (repeatable)
  --max-sessions <n>      sessions held at once; past it, initialize gets 503
                          (env ${MCP_ENV.maxSessions}, default ${DEFAULT_MAX_SESSIONS})
  --max-client-streams <n>
                          requests (listen streams included) open at once from one client
                          address; past it, 429 (env ${MCP_ENV.maxClientStreams}, default ${DEFAULT_MAX_CLIENT_STREAMS})
  --max-session-streams <n>
                          requests open at once in one session; past it, 429
                          (env ${MCP_ENV.maxSessionStreams}, default ${DEFAULT_MAX_SESSION_STREAMS})
`;
}
