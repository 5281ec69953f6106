import * as core from '@actions/core';
import { DEFAULT_BASE_URL, formatElapsed, isTerminalState, type AgentRunsClient } from '@agent-runs/core';
import { createActionClient } from './action-client.js';
import { cancelRun } from './cancel-run.js';
import { errorMessage, type ErrorContext } from './error-message.js';
import { readConnection } from './inputs.js';
import { savedRun } from './step-state.js';
import { logRunText } from './workflow-text.js';

/**
 * The post step (always runs): cancels a run the main step started and could not see to
 * the end, e.g. when the job was cancelled or the step was killed. A run that already
 * ended, or that the main step chose to leave running, is left alone.
 */
export async function runPost(): Promise<void> {
  const saved = savedRun();
  if (!saved) {
    core.info('No run was started; nothing to clean up.');
    return;
  }
  if (!saved.cancelInPost) {
    logRunText(`Run ${saved.runId} was left running on purpose; not cancelling it.`);
    return;
  }
  const errorContext: ErrorContext = { baseURL: DEFAULT_BASE_URL };
  let client: AgentRunsClient | undefined;
  try {
    const problems: string[] = [];
    const connection = readConnection(undefined, undefined, problems);
    if (problems.length > 0) throw new Error(problems.join(' '));
    errorContext.apiKey = connection.apiKey;
    client = createActionClient(connection);
    errorContext.baseURL = client.baseURL;
    const run = await client.runs.get(saved.runId, { timeout: 5_000, maxRetries: 1 });
    if (isTerminalState(run.state)) {
      logRunText(`Run ${run.run_id} already ended (${run.state}); nothing to do.`);
      return;
    }
    const started = Date.now();
    const after = await cancelRun(client, run.run_id);
    logRunText(
      `Run ${run.run_id} was still ${run.state} when the job ended, so it was cancelled` +
        ` (now ${after?.state ?? 'unknown'}, ${formatElapsed(Date.now() - started)}).`,
    );
  } catch (error) {
    core.warning(`Could not check or cancel run ${saved.runId}: ${errorMessage(error, errorContext)}`);
  } finally {
    await client?.close();
  }
}
