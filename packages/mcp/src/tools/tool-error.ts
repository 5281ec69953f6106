import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  AgentRunsError,
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  ClientConfigError,
  ConflictError,
  NotFoundError,
  RequestValidationError,
} from '@agent-runs/core';

/** What an assistant should do after each kind of failure, added to core's message. */
function nextStep(error: unknown, doing: string): string | undefined {
  if (error instanceof RequestValidationError) return 'Fix the named argument(s) and call the tool again.';
  if (error instanceof AuthenticationError) {
    return 'The MCP server has no valid API key: ask the user to set it in this server’s env in the host configuration and restart the server.';
  }
  if (error instanceof NotFoundError) return 'Use list_runs to find the right run_id.';
  if (error instanceof ConflictError) return 'The run is changing state: wait a few seconds and call again.';
  // The server names the fields at fault in `issues`: the cursor is one, whatever the words.
  if (error instanceof BadRequestError && error.issues.some((issue) => issue.path === 'cursor')) {
    return 'Pass the next_cursor of the previous list_runs result unchanged, with the same sort, or call list_runs without cursor to start from the first page.';
  }
  if (error instanceof BadRequestError && doing === 'list runs') return 'Fix the named argument and call list_runs again.';
  if (error instanceof BadRequestError) return 'Use get_run to see the run’s current state before retrying.';
  if (error instanceof APIConnectionError) {
    return 'The Runs API is unreachable: retry shortly; if it persists, the server’s base URL (--base-url or AGENT_RUNS_BASE_URL) may be wrong.';
  }
  if (error instanceof ClientConfigError) return 'The MCP server is misconfigured: ask the user to fix its flags or env.';
  return undefined;
}

/** A tool result with isError: the assistant reads it and decides; the server goes on. */
export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Turns anything a handler threw into an isError result with a next step. */
export function toolErrorResult(error: unknown, doing: string): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const known = error instanceof AgentRunsError;
  const step = nextStep(error, doing);
  return errorResult(`Could not ${doing}: ${known ? message : `unexpected error (${message})`}${step ? ` ${step}` : ''}`);
}
