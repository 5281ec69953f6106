import { z } from 'zod';

/** The `run_id` argument of get_run, wait_for_run and cancel_run. */
export const runIdArgument = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'run_id is required: pass the run_id returned by create_run or list_runs'
        : `run_id must be a string (the run id as returned by create_run or list_runs), got ${String(JSON.stringify(issue.input)).slice(0, 40)}`,
  })
  .trim()
  .min(1, 'run_id must not be empty: pass the run_id returned by create_run or list_runs')
  .describe('The run id, as returned by create_run or list_runs');
