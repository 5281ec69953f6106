import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  missingApiKeyProblem,
  AgentRunsError,
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  ClientConfigError,
  ConflictError,
  NotFoundError,
  RequestValidationError,
  type AgentRunsClient,
} from '@agent-runs/core';

/** What a failed call was: the tool, what it was doing (for the message) and what it names by id. */
export interface ToolCall {
  tool: string;
  /** Words after "Could not": `start the run`, `pause schedule 01ab…`. */
  doing: string;
  /** The kind of thing the call names by id: after a 404, the list tool that finds the right one. */
  names?: 'run' | 'schedule';
}

/** The tool that lists what a field of a refused request names, by the field's path in `issues`. */
const LIST_TOOL_FOR_FIELD: readonly [RegExp, string][] = [
  [/(^|\.)environment(_id)?$/, 'Call list_environments for the environments this server has.'],
  [/(^|\.)(agent_identity_uid|agent_uid|agent)$/, 'Call list_agents for the named agents this server has.'],
  [/(^|\.)(skills?(\[\d+\])?|skill_spec)$/, 'Call list_skills for the skills this server has.'],
  [/(^|\.)worker_host$/, 'Call list_workers for the self-hosted workers connected now.'],
];

const NOT_FOUND_STEP = {
  run: 'Use list_runs to find the right run_id.',
  schedule: 'Use list_schedules to find the right schedule_id.',
} as const;

/** The next step for a request the server refused (400), from the fields it names in `issues`. */
function badRequestStep(error: BadRequestError | RequestValidationError, call: ToolCall): string {
  const paths = error.issues.map((issue) => issue.path);
  // The server names the fields at fault in `issues`: the cursor is one, whatever the words.
  if (paths.includes('cursor')) {
    return 'Pass the next_cursor of the previous list_runs result unchanged, with the same sort, or call list_runs without cursor to start from the first page.';
  }
  if (paths.some((path) => /(^|\.)cron_schedule$/.test(path))) {
    return `Fix cron_schedule (five fields: minute hour day-of-month month day-of-week, such as "0 9 * * 1-5") and call ${call.tool} again.`;
  }
  const listSteps = LIST_TOOL_FOR_FIELD.filter(([field]) => paths.some((path) => field.test(path))).map(([, step]) => step);
  if (listSteps.length) return `${listSteps.join(' ')} Then call ${call.tool} again.`;
  // A refused action on an existing run (cancel, follow up): its state is the likely reason.
  if (error instanceof BadRequestError && call.names === 'run' && paths.length === 0) {
    return 'Use get_run to see the run’s current state before retrying.';
  }
  return `Fix the named argument(s) and call ${call.tool} again.`;
}

/** What an assistant should do after each kind of failure, added to core's message. */
function nextStep(error: unknown, call: ToolCall, client: AgentRunsClient | undefined): string | undefined {
  // No key is the cause of whatever followed (a 401, or no answer at all): say that, not "retry".
  const noKey = client ? missingApiKeyProblem(client, 'add --api-key to its args') : undefined;
  if (noKey && (error instanceof APIConnectionError || error instanceof AuthenticationError)) {
    return `The MCP server has no API key. ${noKey} Ask the user to set it in this server’s env in the host configuration and restart the server.`;
  }
  if (error instanceof RequestValidationError || error instanceof BadRequestError) return badRequestStep(error, call);
  if (error instanceof AuthenticationError) {
    return 'The MCP server has no valid API key: ask the user to set it in this server’s env in the host configuration and restart the server.';
  }
  if (error instanceof NotFoundError) return call.names ? NOT_FOUND_STEP[call.names] : undefined;
  if (error instanceof ConflictError) {
    return call.names === 'schedule' ? 'The schedule is changing: call list_schedules, then try again.' : 'The run is changing state: wait a few seconds and call again.';
  }
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

/** Turns anything a handler threw into an isError result with the next step for this tool and what it names. */
export function toolErrorResult(error: unknown, call: ToolCall, client?: AgentRunsClient): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const known = error instanceof AgentRunsError;
  const step = nextStep(error, call, client);
  return errorResult(`Could not ${call.doing}: ${known ? message : `unexpected error (${message})`}${step ? ` ${step}` : ''}`);
}
