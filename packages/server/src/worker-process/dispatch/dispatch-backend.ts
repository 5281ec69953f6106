import { SecretMask } from '../../domain/secret-mask.js';
import { COMMAND_ENV } from '../../executors/command-env.js';
import type { Execution, ExecutionContext, ExecutionOutcome, RunExecutor } from '../../executors/run-executor.js';
import type { RunRecord } from '../../store/runs/run-record.js';
import type { ReattachedRun } from '../poll-loop.js';
import type { RunSinks } from '../worker-run.js';
import { fileLimitsFrom, JOB_ENV } from '../kubernetes/job-limits.js';
import type { JobEnd } from '../kubernetes/job-protocol.js';
import { fileLimitsOf, ReceivedFiles } from '../kubernetes/job-files.js';
import type { JobRelay, RelayedRun } from '../kubernetes/job-relay.js';
import { entrypointToken } from '../kubernetes/entrypoint-token.js';
import { endFailure, handOnEnd } from '../kubernetes/job-execution.js';
import { deliverThrough, FollowupQueue, takenIn } from '../kubernetes/followup-queue.js';
import { remoteRunEnv } from '../kubernetes/job-harness.js';
import { DISPATCH_FORMAT, type DispatchedRun } from './dispatch-protocol.js';
import type { DispatchedRuns } from './dispatched-runs.js';
import { describeResult, runOperatorCommand } from './operator-command.js';
import { executionPrompt } from '../execution-prompt.js';
import { readBudget, sealBudget } from '../sealed-budget.js';
import type { HarnessesConfig } from '../../domain/harness-config.js';
import type { EnvironmentConfig } from '../../domain/server-config.js';

export interface DispatchBackendOptions {
  relay: JobRelay;
  /** What the remote entrypoints reach the relay at. */
  relayUrl: string;
  workerToken: string;
  /** The operator's command that hands a run to their scheduler (the run as JSON on its stdin). */
  dispatchCommand: string;
  /** Run with the run id when a dispatched run is stopped here (a cancel, a lost lease, the worker's shutdown). */
  cancelCommand: string | undefined;
  /** How long either command may take. */
  commandTimeoutMs: number;
  /** A dispatched run the worker hears nothing from (output, its entrypoint's heartbeat) for this long ends FAILED. */
  silenceTimeoutMs: number;
  /** The agent command the remote entrypoint runs for a run that names no harness. */
  command: string;
  /** The worker's `harnesses:` section: a run naming a harness runs its CLI on the remote side, through the server's harness code. */
  harnesses: HarnessesConfig;
  /** The environments of the worker's configuration file, by id: a run's checkout and setup are made by the remote entrypoint. */
  environments: { get(id: string): EnvironmentConfig | undefined };
  /** The run's environment's named secrets (stdin only). */
  secretsOf(run: RunRecord): Record<string, string>;
  /** The operator commands' environment. */
  env: NodeJS.ProcessEnv;
  runs: DispatchedRuns;
  log(line: string): void;
}

const NAME = 'dispatch';

const failed = (message: string, retryable = false): ExecutionOutcome => ({ state: 'FAILED', statusMessage: { message, retryable } });


/**
 * The worker's executor with `--backend command`: each execution of a run is handed to the
 * operator's dispatch command (Nomad, ECS, ssh…), the run as JSON on its stdin; exit 0 means
 * dispatched. On the remote side `agent-runs-job-entrypoint --stdin` runs the agent and
 * reports to this worker under a token good for the run alone, as a Job's pod does. A stop
 * here refuses the entrypoint's next report or heartbeat (410: it stops its agent) and runs
 * the cancel command, if any. Runs dispatched and not ended are noted in the work directory,
 * so that a restarted worker follows them again (their tokens need no state).
 */
export class DispatchBackend implements RunExecutor {
  readonly name = NAME;

  constructor(private readonly o: DispatchBackendOptions) {}

  start(context: ExecutionContext): Execution {
    const { run, input } = context;
    // The worker runs a run under the claim the server gave it, as its `startedAt`.
    const claim = run.startedAt ?? '';
    const config = run.agentConfig;
    const environment = config.environment_id ? this.o.environments.get(config.environment_id) : undefined;
    // On stdin, the workspace is bound by no variable's size (`problem` is a pod's).
    const remote = remoteRunEnv(context, this.o.harnesses, environment);
    const dispatched: DispatchedRun = {
      format: DISPATCH_FORMAT,
      run_id: run.id,
      execution: input.number,
      worker_url: this.o.relayUrl,
      run_token: entrypointToken(this.o.workerToken, run.id, claim),
      command: this.o.command,
      env: {
        [COMMAND_ENV.runId]: run.id,
        [COMMAND_ENV.title]: run.title,
        [COMMAND_ENV.modelId]: config.model_id ?? '',
        [COMMAND_ENV.basePrompt]: config.base_prompt ?? '',
        [COMMAND_ENV.environmentId]: config.environment_id ?? '',
        [COMMAND_ENV.execution]: String(input.number),
        [JOB_ENV.prompt]: executionPrompt(context),
        [JOB_ENV.fileLimits]: JSON.stringify(fileLimitsOf(input)),
        ...remote.env,
        ...remote.secretEnv,
      },
      secrets: this.o.secretsOf(run),
      ...(context.agentApi ? { api_token: context.agentApi.token } : {}),
    };
    if (remote.note) context.onOutput(remote.note, 'stderr');
    const budget = sealBudget(this.o.workerToken, run.id, claim, config.budget);
    this.o.runs.note({ run_id: run.id, claim, execution: input.number, budget: budget.budget, budget_seal: budget.seal });
    const sinks = { onOutput: context.onOutput, ...(context.onHarnessState ? { onHarnessState: context.onHarnessState } : {}), ...(context.onUsage ? { onUsage: context.onUsage } : {}) };
    return this.follow(run.id, claim, sinks, dispatched, context.restore?.patches);
  }

  /** The runs this worker dispatched before a restart and that had not ended here: followed again. */
  async reattach(): Promise<ReattachedRun[]> {
    const found = this.o.runs.list(this.o.log).map(({ run_id: runId, claim, execution, budget, budget_seal: seal }) => ({
      runId,
      claim,
      budget: readBudget(this.o.workerToken, runId, claim, { budget, seal }),
      start: { execution, executorName: NAME, begin: (sinks: RunSinks) => this.follow(runId, claim, sinks) },
    }));
    this.o.relay.markReady();
    return found;
  }

  private follow(runId: string, claim: string, sinks: RunSinks, dispatch?: DispatchedRun, patches?: readonly Buffer[]): Execution {
    const { relay, log } = this.o;
    let settle!: (outcome: ExecutionOutcome) => void;
    const done = new Promise<ExecutionOutcome>((resolve) => (settle = resolve));
    let over = false;
    let silence: NodeJS.Timeout | undefined;
    let cancelling: Promise<void> | undefined;
    const followups = new FollowupQueue();

    const cancelRemote = (why: string): Promise<void> => {
      const path = this.o.cancelCommand;
      if (!path) return Promise.resolve();
      return (cancelling ??= runOperatorCommand({ path, args: [runId], stdin: `${JSON.stringify({ format: DISPATCH_FORMAT, run_id: runId })}\n`, env: this.o.env, timeoutMs: this.o.commandTimeoutMs }).then((result) => {
        if (result.kind !== 'exited' || result.code !== 0) log(`Run ${runId}: ${describeResult(`the cancel command (${why})`, result, this.o.commandTimeoutMs)}.`);
      }));
    };
    const finish = (outcome: ExecutionOutcome, stopRemote?: string): void => {
      if (over) return;
      over = true;
      clearTimeout(silence);
      // From now on the entrypoint's reports and heartbeats are answered 410: it stops its agent.
      relay.detach(runId, relayed);
      followups.close();
      this.o.runs.forget(runId);
      if (stopRemote) void cancelRemote(stopRemote);
      settle(outcome);
    };
    const heard = () => {
      clearTimeout(silence);
      if (over) return;
      silence = setTimeout(() => {
        const seconds = Math.round(this.o.silenceTimeoutMs / 1000);
        log(`Run ${runId}: nothing heard from its dispatched entrypoint for ${seconds} s.`);
        finish(failed(`Nothing was heard from the dispatched run's entrypoint for ${seconds} s (no output, no heartbeat): it did not start, or stopped without reporting how the agent ended.`, true), 'silent');
      }, this.o.silenceTimeoutMs);
      silence.unref?.();
    };
    // A run followed again after a restart had its limits in the dispatched run's JSON, not kept here: the server's defaults, and the server holds the run to its own.
    const files = new ReceivedFiles(fileLimitsFrom(dispatch?.env[JOB_ENV.fileLimits]));
    const ended = async (end: JobEnd): Promise<void> => {
      await handOnEnd(end, sinks);
      const artifacts = [...files.list(), ...(end.artifacts ?? [])];
      const withFiles = { ...(artifacts.length ? { artifacts } : {}), ...takenIn(end) };
      if (end.exit_code === 0) return finish({ state: 'SUCCEEDED', ...(end.status_message ? { statusMessage: end.status_message } : {}), ...withFiles });
      finish({ ...endFailure(end), ...withFiles });
    };
    const relayed: RelayedRun = {
      claim,
      output: ({ lines }) => {
        if (over) return;
        heard();
        for (const line of lines) sinks.onOutput(line.text, line.stream);
      },
      end: (end) => (over ? Promise.resolve() : ended(end)),
      state: (state) => {
        heard();
        if (!over) void handOnEnd(state, sinks);
      },
      alive: heard,
      files,
      followups,
      ...(patches ? { patches } : {}),
    };

    relay.attach(runId, relayed);
    heard();
    if (dispatch) {
      const started = performance.now();
      void runOperatorCommand({ path: this.o.dispatchCommand, args: [], stdin: `${JSON.stringify(dispatch)}\n`, env: this.o.env, timeoutMs: this.o.commandTimeoutMs }).then((result) => {
        if (result.kind === 'exited' && result.code === 0) {
          log(`Run ${runId}: dispatched (execution ${dispatch.execution}, ${Math.round(performance.now() - started)} ms).`);
          return;
        }
        // A script that echoes its stdin would put the run's token and secrets in the run's status.
        const message = new SecretMask([dispatch.run_token, ...Object.values(dispatch.secrets)]).mask(describeResult('The dispatch command', result, this.o.commandTimeoutMs));
        log(`Run ${runId}: ${message}.`);
        // Whatever it may have started (a timeout) is told to stop.
        finish(failed(`${message}.`), result.kind === 'timed-out' ? 'the dispatch command timed out' : undefined);
      });
    }
    return {
      done,
      async cancel() {
        if (over) return;
        finish(failed('The run was stopped.'));
        await cancelRemote('the run was stopped');
      },
      deliver: deliverThrough(followups, runId, log),
    };
  }
}
