import { z } from 'zod';
import { KNOWN_ARTIFACT_TYPES, RequestUsageSchema } from '@agent-runs/core/contract';
import { MAX_JOB_LINE_CHARS, MAX_JOB_LINES } from './job-limits.js';

/**
 * What a Job's entrypoint sends the worker that made the Job, over HTTP, under the run's
 * token (`run-token.ts`): `POST /runs/{runId}/output` with lines as the agent printed them,
 * then, once the agent is over, each file it left in its artifacts directory as
 * `POST /runs/{runId}/files?path=<its path there>` (the bytes as the body, within the run's
 * artifact limits: `FileLimits`), then `POST /runs/{runId}/end` with how the agent ended,
 * whose finish carries those files. One request at a time, in order.
 * While the agent is quiet, `POST /runs/{runId}/alive` (`{}`) every JOB_HEARTBEAT_MS asks
 * whether the run still runs there: a 410 has the entrypoint stop its agent (a cancel, where
 * no cluster deletes a pod: the dispatch-command backend). A follow-up whose working directory
 * is made again first fetches the run's patches, `GET /runs/{runId}/patches/{index}` (the
 * bytes as the body), before it clones. While its agent runs, it fetches the follow-ups sent
 * to the run meanwhile, `GET /runs/{runId}/followups?after=<the last follow-up's id it has>`
 * (a long poll answered `{ "followups": [...] }`), and hands each to its agent as the local
 * executors do (the command's inbox file); its end names those the agent said it took.
 */

export const JobOutputSchema = z.strictObject({
  lines: z
    .array(z.strictObject({ stream: z.enum(['stdout', 'stderr']), text: z.string().max(MAX_JOB_LINE_CHARS) }))
    .min(1)
    .max(MAX_JOB_LINES),
});
export type JobOutput = z.output<typeof JobOutputSchema>;

/**
 * `POST /runs/{runId}/state`: a harness's state while it runs (its usage so far over the run's
 * executions, its session id), sent as it changes, kept with the run as a process-backend
 * worker's harness state is: a budget or a quota sees the usage while the agent still runs.
 */
export const JobStateSchema = z.strictObject({
  usage: RequestUsageSchema.optional(),
  harness_session_id: z.string().min(1).max(200).optional(),
});
export type JobState = z.output<typeof JobStateSchema>;

export const JobEndSchema = z.strictObject({
  /** The agent's exit code, or null when a signal ended it. */
  exit_code: z.number().int().min(0).max(255).nullable(),
  signal: z.string().regex(/^SIG[A-Z0-9]{1,12}$/).nullable(),
  /** What the agent wrote to its usage file, if anything. */
  usage: RequestUsageSchema.optional(),
  /** A harness's session id (a harness execution): kept with the run, as a process-backend worker's is. */
  harness_session_id: z.string().min(1).max(200).optional(),
  /** A harness execution's status as the server's HarnessExecutor says it (its answer, or why it failed); else a failure names the exit code. */
  status_message: z.strictObject({ message: z.string().max(4_000), error_code: z.string().max(64).optional(), retryable: z.boolean().optional() }).optional(),
  /**
   * What the agent's report file named that is not a file (a pull request, a link): files go
   * through `files` first. Checked again by the server at the run's finish.
   */
  artifacts: z.array(z.strictObject({ type: z.enum(KNOWN_ARTIFACT_TYPES), data: z.record(z.string(), z.unknown()) })).max(100).optional(),
  /** The follow-ups handed to the agent while it ran that it said it took (its report file's lines): the server checks them against the run's. */
  taken_followups: z.array(z.string().min(1).max(100)).max(1_000).optional(),
});
export type JobEnd = z.output<typeof JobEndSchema>;
