import * as core from '@actions/core';
import { BadRequestError, type AgentRunsClient, type RunItem } from '@agent-runs/core';

/** Short limits: cancelling happens while the runner is waiting to end the job. */
const CANCEL_REQUEST = { timeout: 4_000, maxRetries: 1 };

/**
 * Cancels a run and returns it as it stands afterwards. A run that ended meanwhile is
 * not an error (the server answers 400 for a terminal run).
 */
export async function cancelRun(client: AgentRunsClient, runId: string): Promise<RunItem | undefined> {
  try {
    await client.runs.cancel(runId, CANCEL_REQUEST);
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    core.debug(`Cancel of ${runId} refused: ${error.message}`);
  }
  try {
    return await client.runs.get(runId, { timeout: 2_000, maxRetries: 0 });
  } catch (error) {
    core.debug(`Could not fetch ${runId} after cancelling: ${(error as Error).message}`);
    return undefined;
  }
}
