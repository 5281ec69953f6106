import { KNOWN_ARTIFACT_TYPES, RequestUsageSchema, RunStatusMessageSchema, singleLineText, WORKER_HOST_PATTERN } from '@agent-runs/core/contract';
import { z } from 'zod';

/**
 * The worker protocol: what a self-hosted worker and the server say to each other, over
 * HTTP(S), under a worker token (`Authorization: Bearer …`), at `/api/v1/workers/…`. Both
 * ends import these schemas; the server parses every body a worker sends with them, and the
 * worker every answer. A worker never opens the database and never holds a principal's key.
 *
 *   connect ──▶ poll ⟲ (renews the leases of the runs it holds, waits for work or commands)
 *                 │ assignment: a run claimed for it, with its claim, its execution's input and its run token
 *                 ├──▶ report (output, harness state) … under the claim, 409 once the lease is gone
 *                 ├──▶ finish (the execution's outcome) under the claim
 *                 └──▶ give-back (its agent never started: the run back in line) under the claim
 *
 * A run's claim (its `started_at` as claimed) is the fencing token: every report and finish
 * names it, and the server takes nothing from a worker whose lease on that claim it gave up.
 */

/** How long a poll waits, at most, for work or a command before answering empty. */
export const POLL_WAIT_MS = 25_000;
/** Runs one worker process may hold at once, at most (`--concurrency`). */
export const MAX_WORKER_CAPACITY = 256;

const workerHost = z
  .string()
  .regex(WORKER_HOST_PATTERN, 'must be 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit');
const instanceId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, ".", "_" or "-"');
const runId = z.string().min(1).max(100);
const claim = z.string().min(1).max(64);

/** `POST /api/v1/workers/connect`: a worker process announces itself (again after any gap). */
export const WorkerConnectRequestSchema = z.strictObject({
  worker_host: workerHost,
  instance_id: instanceId,
  version: z.string().max(64),
  capacity: z.number().int().min(1).max(MAX_WORKER_CAPACITY),
  harnesses: z.array(z.string().max(32)).max(16),
  environments: z.array(z.string().max(100)).max(256),
});
export type WorkerConnectRequest = z.infer<typeof WorkerConnectRequestSchema>;

export const WorkerConnectResponseSchema = z.looseObject({
  /** How long a lease lasts without a poll renewing it. */
  lease_ms: z.number().int().min(1),
  /** How long a poll waits, at most, before answering (shorter while the worker holds runs). */
  poll_wait_ms: z.number().int().min(1),
  /** Whether this worker also takes runs that name no worker_host (the server sends every run to workers). */
  takes_unrouted: z.boolean(),
  server_version: z.string(),
});
export type WorkerConnectResponse = z.infer<typeof WorkerConnectResponseSchema>;

/** A run the worker holds, by the claim it runs under. */
const HeldRunSchema = z.strictObject({ run_id: runId, claim });

/** `POST /api/v1/workers/poll`: renews the leases of `runs`, and waits for work (when slots are free) or a command. */
export const WorkerPollRequestSchema = z.strictObject({
  instance_id: instanceId,
  free_slots: z.number().int().min(0).max(MAX_WORKER_CAPACITY),
  /** Draining (SIGTERM): takes no new run, keeps renewing the ones it holds. */
  draining: z.boolean(),
  runs: z.array(HeldRunSchema).max(MAX_WORKER_CAPACITY),
});
export type WorkerPollRequest = z.infer<typeof WorkerPollRequestSchema>;

/** A follow-up as the agent sees it (its inbox file). */
const FollowupMessageSchema = z.strictObject({
  id: z.string(),
  message: z.string(),
  mode: z.string().nullable(),
  created_at: z.string(),
  /** A message from another run (the mailbox), handed to the agent's inbox as a follow-up is. */
  kind: z.literal('agent_message').optional(),
  sender_run_id: z.string().optional(),
  subject: z.string().optional(),
});

/** What the server tells a worker about a run it holds. */
export const WorkerCommandSchema = z.discriminatedUnion('kind', [
  /** Stop the run's agent now (cancelled); then finish it with state CANCELLED. */
  z.strictObject({ kind: z.literal('cancel'), run_id: runId }),
  /** Hand this follow-up, or a message from another run, to the running agent (its inbox). */
  z.strictObject({ kind: z.literal('followup'), run_id: runId, followup: FollowupMessageSchema }),
]);
export type WorkerCommand = z.infer<typeof WorkerCommandSchema>;

/**
 * A run claimed for the worker: the run as the server keeps it (`RunRecord`, as JSON) and
 * its execution's input (`ExecutionInput`; attachments' bytes in base64). Parsed loosely
 * here and turned back into the executor's types by `worker-wire.ts`. A follow-up's
 * execution (number > 1) carries `workspace`: what a worker without the run's working
 * directory (the last execution ran elsewhere) makes it again from; the harness session is
 * the run's `harnessSessionId`.
 */
export const WorkerAssignmentSchema = z.looseObject({
  claim,
  /**
   * The agent's run token (`art_…`), valid while this execution runs, on the server that
   * answered the poll: the worker gives it to the agent (AGENT_RUNS_RUN_TOKEN) with that
   * server's URL (AGENT_RUNS_API_URL), masked in what the agent prints. Absent from a server
   * that mints none.
   */
  run_token: z.string().regex(/^art_[A-Za-z0-9_-]{20,100}$/).optional(),
  run: z.looseObject({ id: runId }),
  input: z.looseObject({ number: z.number().int().min(1) }),
  workspace: z
    .strictObject({
      /** Who ran the run's last execution (`<worker_host>/<instance_id>`, or a server's name). */
      ran_on: z.string().max(200),
      /** The run's `changes.patch` files, oldest first, base64: applied in order to the checkout. */
      patches_base64: z.array(z.string()).max(1_000),
    })
    .optional(),
});
export type WorkerAssignment = z.infer<typeof WorkerAssignmentSchema>;

export const WorkerPollResponseSchema = z.looseObject({
  assignments: z.array(WorkerAssignmentSchema),
  commands: z.array(WorkerCommandSchema),
  /** Of the runs the poll named, those whose lease it renewed; the others' agents stop now. */
  renewed: z.array(runId),
  lease_ms: z.number().int().min(1),
});
export type WorkerPollResponse = z.infer<typeof WorkerPollResponseSchema>;

/** `POST /api/v1/workers/runs/{runId}/report`: what the agent printed and its harness state, in order. */
export const WorkerReportRequestSchema = z.strictObject({
  instance_id: instanceId,
  claim,
  output: z
    .array(z.strictObject({ stream: z.enum(['stdout', 'stderr']), text: z.string() }))
    .max(10_000)
    .optional(),
  harness_state: z
    .strictObject({ request_usage: RequestUsageSchema.optional(), harness_session_id: z.string().max(200).optional() })
    .optional(),
});
export type WorkerReportRequest = z.infer<typeof WorkerReportRequestSchema>;

const WireArtifactSchema = z.strictObject({
  type: z.enum(KNOWN_ARTIFACT_TYPES),
  data: z.record(z.string(), z.unknown()),
  /** FILE and SCREENSHOT bytes, base64. */
  content_base64: z.string().optional(),
});

/** `POST /api/v1/workers/runs/{runId}/finish`: how the execution ended, under its claim. */
export const WorkerFinishRequestSchema = z.strictObject({
  instance_id: instanceId,
  claim,
  /** The execution's number, from its input. */
  execution: z.number().int().min(1),
  /** CANCELLED: the agent was stopped by a cancel command (or the worker's shutdown). */
  state: z.enum(['SUCCEEDED', 'FAILED', 'ERROR', 'BLOCKED', 'CANCELLED']),
  status_message: RunStatusMessageSchema.optional(),
  artifacts: z.array(WireArtifactSchema).max(1_000).optional(),
  taken_followups: z.array(z.string()).max(1_000).optional(),
});
export type WorkerFinishRequest = z.infer<typeof WorkerFinishRequestSchema>;

/**
 * `POST /api/v1/workers/runs/{runId}/give-back`: the execution's agent never started (a
 * restart found its start unfinished and undid it): the execution ends unstarted and the run
 * goes back to QUEUED, for the next free slot, instead of ending with nothing run.
 */
export const WorkerGiveBackRequestSchema = z.strictObject({
  instance_id: instanceId,
  claim,
  /** The execution's number, from its input. */
  execution: z.number().int().min(1),
  /** Why, said in the run's output: one line. */
  reason: singleLineText(z.string().max(500)).optional(),
});
export type WorkerGiveBackRequest = z.infer<typeof WorkerGiveBackRequestSchema>;

/** The status of a report or finish whose lease the server gave up (a `conflict` problem): the worker stops that run's agent. */
export const LEASE_LOST_STATUS = 409;
