import type { AmbientAgentConfig, RequestUsage, RunBudget, RunStatusMessage, ValidationIssue } from '@agent-runs/core/contract';
import type { NewArtifact } from '../store/artifacts/artifact-store.js';
import type { ProcessGroupRecord } from '../store/runs/process-group-record.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { ExecutionInput, FollowupMessage } from './execution-input.js';

// Stored by the store, named here too for the executors and the wiring that pass it on.
export type { ProcessGroupRecord };

/** How an execution ended; the queue turns it into the run's terminal state. */
export interface ExecutionOutcome {
  state: 'SUCCEEDED' | 'FAILED' | 'ERROR' | 'BLOCKED';
  statusMessage?: RunStatusMessage;
  /** What the agent made in this execution (checked against the limits already). */
  artifacts?: NewArtifact[];
  /** Follow-ups delivered during the execution that the agent said it took. */
  takenFollowups?: string[];
}

export interface Execution {
  /** Settles when the work ends on its own; after cancel() its value is ignored. */
  done: Promise<ExecutionOutcome>;
  /** The agent's process group, when the work is a process: recorded so a restart can end it. */
  processGroup?: ProcessGroupRecord | undefined;
  /** Stops the work now (cancel or shutdown); resolves once it has stopped. */
  cancel(): Promise<void>;
  /** Hands a follow-up to the running agent (the command's inbox file); false when this executor cannot. */
  deliver?(followup: FollowupMessage): boolean;
}

export interface ExecutionContext {
  run: RunRecord;
  /** The conversation so far, the follow-ups this execution answers, the run's attachments and limits. */
  input: ExecutionInput;
  /** Text the agent printed, in order: kept with the run and streamed to its watchers. */
  onOutput(text: string, stream?: 'stdout' | 'stderr'): void;
  /** What a harness reported that is kept with the run (usage so far, its session id); resolves once stored. */
  onHarnessState?(state: HarnessState): Promise<void>;
  /**
   * The run's usage so far (all executions), at every update a harness reports, before it is
   * stored (which is throttled): what the run's budget is checked against.
   */
  onUsage?(usage: RequestUsage): void;
  /** A follow-up's execution where the run's working directory may not be: what to make it again from, if it is missing. */
  restore?: WorkspaceRestore;
  /** The server's API as this execution's agent reaches it, with the run token it holds while it runs (none on a worker). */
  agentApi?: AgentApiAccess;
}

/** What an agent starts other runs with: `AGENT_RUNS_API_URL` and `AGENT_RUNS_RUN_TOKEN`. */
export interface AgentApiAccess {
  /** The server's base URL, no trailing slash. */
  url: string;
  /** The run-scoped token: a secret, masked in everything the execution hands back. */
  token: string;
}

/** What a run's working directory is made again from on a machine that did not run its last execution. */
export interface WorkspaceRestore {
  /** Who ran the last execution (a worker `<worker_host>/<instance_id>` or a server), for the note in the output. */
  ranOn: string;
  /** Who restores it (this worker), for the same note. */
  here: string;
  /** The run's `changes.patch` files, oldest first. */
  patches: Buffer[];
}

/** A harness's state kept with the run: its usage so far (all executions), and the session a follow-up resumes. */
export interface HarnessState {
  requestUsage?: RequestUsage;
  harnessSessionId?: string;
}

/** Does the work of a run: the simulated agent, or a configured command. */
export interface RunExecutor {
  readonly name: string;
  /** Problems with a prompt or follow-up message that this executor can see up front (one line each). */
  check?(prompt: string, field?: string): string[];
  /** Problems with a run's configuration this executor can see up front (a harness it cannot start, a key its principal may not name). */
  checkConfig?(config: AmbientAgentConfig, principal: string | undefined): ValidationIssue[];
  start(context: ExecutionContext): Execution;
  /**
   * Follows an execution that began before this process did (a worker's run found running
   * after a restart), held to what this executor holds every execution it starts to; absent:
   * `begin` alone.
   */
  followAgain?(followed: FollowedExecution): Execution;
}

/** Where an execution's agent reports, as the executor it runs under sees it. */
export type ExecutionSinks = Pick<ExecutionContext, 'onOutput' | 'onHarnessState' | 'onUsage'>;

/** An execution running already, found again: what it is held to, and how to follow it. */
export interface FollowedExecution {
  /** The run's budget as the execution was started with it (none: the run has none). */
  budget: RunBudget | undefined;
  /** When the execution started (ms since the epoch): its wall time counts from then, not from now. */
  startedAt: number;
  sinks: ExecutionSinks;
  begin(sinks: ExecutionSinks): Execution;
}
