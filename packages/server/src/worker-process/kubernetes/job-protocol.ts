import { z } from 'zod';
import { RequestUsageSchema } from '@agent-runs/core/contract';

/**
 * What a Job's entrypoint sends the worker that made the Job, over HTTP, under the run's
 * token (`run-token.ts`): `POST /runs/{runId}/output` with lines as the agent printed them,
 * then `POST /runs/{runId}/end` with how the agent ended. One request at a time, in order.
 * While the agent is quiet, `POST /runs/{runId}/alive` (`{}`) every JOB_HEARTBEAT_MS asks
 * whether the run still runs there: a 410 has the entrypoint stop its agent (a cancel, where
 * no cluster deletes a pod: the dispatch-command backend).
 */

/** Lines in one output request, at most; the entrypoint sends more in the next. */
export const MAX_JOB_LINES = 1_000;
/** Text of one line, at most: a longer one is cut by the entrypoint. */
export const MAX_JOB_LINE_CHARS = 64 * 1024;
/** How often a quiet entrypoint says it is still there. */
export const JOB_HEARTBEAT_MS = 5_000;
/** A body larger than this is refused (413). */
export const MAX_JOB_BODY_BYTES = 4 * 1024 * 1024;

export const JobOutputSchema = z.strictObject({
  lines: z
    .array(z.strictObject({ stream: z.enum(['stdout', 'stderr']), text: z.string().max(MAX_JOB_LINE_CHARS) }))
    .min(1)
    .max(MAX_JOB_LINES),
});
export type JobOutput = z.output<typeof JobOutputSchema>;

export const JobEndSchema = z.strictObject({
  /** The agent's exit code, or null when a signal ended it. */
  exit_code: z.number().int().min(0).max(255).nullable(),
  signal: z.string().regex(/^SIG[A-Z0-9]{1,12}$/).nullable(),
  /** What the agent wrote to its usage file, if anything. */
  usage: RequestUsageSchema.optional(),
});
export type JobEnd = z.output<typeof JobEndSchema>;

/** The variables the entrypoint reads (the agent gets none of the first two). */
export const JOB_ENV = {
  /** The worker's listener, as the pod reaches it. */
  url: 'AGENT_RUNS_JOB_URL',
  token: 'AGENT_RUNS_JOB_TOKEN',
  /** The agent command, run with `/bin/sh -c`. */
  command: 'AGENT_RUNS_JOB_COMMAND',
  /** The prompt of the run's first execution, or the follow-up's text. */
  prompt: 'AGENT_RUNS_PROMPT',
  /** Where the agent may write its usage as JSON (the API's request usage). */
  usageFile: 'AGENT_RUNS_USAGE_FILE',
} as const;
