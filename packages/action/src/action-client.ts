import * as core from '@actions/core';
import { AgentRunsClient, VERSION, type Logger } from '@agent-runs/core';
import { logRunText } from './workflow-text.js';

/** The client's own log lines, routed to the workflow log; debug lines only with step debugging on. */
const workflowLogger: Logger = {
  debug: (message) => core.debug(message),
  // The client's lines can quote the server (a problem's detail), so they are run text too.
  info: (message) => logRunText(message),
  warn: (message) => core.warning(message),
  error: (message) => core.error(message),
};

export interface Connection {
  apiKey: string;
  baseURL: string | undefined;
}

/** A client that identifies itself as the Action, so that the server records the source GITHUB_ACTION. */
export function createActionClient({ apiKey, baseURL }: Connection): AgentRunsClient {
  return new AgentRunsClient({
    apiKey,
    baseURL: baseURL || undefined,
    source: 'GITHUB_ACTION',
    userAgent: `agent-runs-action/${VERSION}`,
    logger: workflowLogger,
    logLevel: core.isDebug() ? 'debug' : 'warn',
  });
}
