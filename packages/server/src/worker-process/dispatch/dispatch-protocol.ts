import { z } from 'zod';

/**
 * What `--backend command` writes to the dispatch command's stdin for each execution of a
 * run, one JSON object, and what `agent-runs-job-entrypoint --stdin` reads on the remote
 * side: where to report, the run's token, the agent command and its variables, and the
 * run's secrets. Stdin is the only place the token and the secrets travel: never argv, never
 * the dispatch command's environment.
 */
export const DISPATCH_FORMAT = 'agent-runs.dispatch/v1';

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export const DispatchedRunSchema = z.strictObject({
  format: z.literal(DISPATCH_FORMAT),
  run_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  execution: z.number().int().min(1),
  /** The worker's listener as the remote side reaches it (`--job-url`). */
  worker_url: z.url({ protocol: /^https?$/ }),
  /** Good for this run's reports alone, while it runs here (HMAC of the worker token; the worker token itself never leaves the worker). */
  run_token: z.string().min(1).max(200),
  /** The agent command, run with `/bin/sh -c`. */
  command: z.string().min(1),
  /** The agent's variables: the run's `AGENT_RUNS_*` and its prompt. */
  env: z.record(z.string().regex(VARIABLE), z.string()),
  /** The run's environment's named secrets, given to the agent as variables. */
  secrets: z.record(z.string().regex(VARIABLE), z.string()),
  /** The run's API token, for an agent that starts child runs (its AGENT_RUNS_RUN_TOKEN); absent when the server gave none. */
  api_token: z.string().min(1).max(500).optional(),
});
export type DispatchedRun = z.output<typeof DispatchedRunSchema>;
