import { formatIssues } from '@agent-runs/core/contract';
import { COMMAND_ENV } from '../../executors/command-env.js';
import { JOB_ENV } from '../kubernetes/job-limits.js';
import { DispatchedRunSchema } from './dispatch-protocol.js';

/**
 * `agent-runs-job-entrypoint --stdin`: the run as the dispatch command received it, made the
 * variables the entrypoint reads in a pod. They live in this process's memory only: the
 * agent gets the run's variables and secrets, never the token nor where it reports.
 */
export function entrypointEnvFrom(text: string, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('stdin is not JSON: give it the run exactly as agent-runs-worker --backend command wrote it to the dispatch command.');
  }
  const parsed = DispatchedRunSchema.safeParse(json);
  if (!parsed.success) throw new Error(`stdin is not a dispatched run: ${formatIssues(parsed.error, 'stdin').join('; ')}`);
  const run = parsed.data;
  return {
    ...base,
    ...run.env,
    ...run.secrets,
    [COMMAND_ENV.runId]: run.run_id,
    [JOB_ENV.url]: run.worker_url,
    [JOB_ENV.token]: run.run_token,
    [JOB_ENV.command]: run.command,
    // Their values masked in all the entrypoint reports, whichever worker follows the run by then (`entrypoint-mask.ts`).
    [JOB_ENV.masked]: JSON.stringify(Object.keys(run.secrets)),
    ...(run.api_token ? { [JOB_ENV.apiToken]: run.api_token } : {}),
  };
}
