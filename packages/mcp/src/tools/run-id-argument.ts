import { z } from 'zod';

/** The `run_id` argument of get_run, wait_for_run and cancel_run. */
export const runIdArgument = z
  .string({ error: 'run_id is required: pass the run_id returned by create_run or list_runs' })
  .trim()
  .min(1, 'run_id must not be empty: pass the run_id returned by create_run or list_runs')
  .describe('The run id, as returned by create_run or list_runs');
