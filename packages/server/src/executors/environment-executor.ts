import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentConfig } from '../domain/server-config.js';
import { prepareExecutionFiles } from './agent-protocol.js';
import { commandEnv } from './command-env.js';
import { processStartTime } from '../domain/process-identity.js';
import { prepareWorkspace } from './prepare-workspace.js';
import type { Execution, ExecutionContext, ExecutionOutcome, ProcessGroupRecord, RunExecutor } from './run-executor.js';
import { runWorkDir } from './run-work-dir.js';

/**
 * Wraps the command executor: a run with `config.environment_id` first gets its working
 * directory prepared (repositories cloned, setup commands run); the agent starts only
 * after that succeeds, and a failed setup ends the run FAILED naming the step.
 */
export class EnvironmentExecutor implements RunExecutor {
  readonly name: string;

  constructor(
    private readonly inner: RunExecutor,
    /** The declared environments by id (the catalog's registry). */
    private readonly environments: { get(id: string): EnvironmentConfig | undefined },
    private readonly workRoot: string,
    private readonly timeoutMs: number,
    /** Server variables passed on to the agent, and so to the setup commands. */
    private readonly agentEnv: readonly string[] = [],
    /**
     * Records a process group started after start() returned (a setup step, then the agent),
     * so that a server started after a crash can end it, as it does the agent's.
     */
    private readonly recordProcessGroup: (runId: string, group: ProcessGroupRecord) => void = () => {},
  ) {
    this.name = inner.name;
  }

  check(prompt: string): string[] {
    return this.inner.check?.(prompt) ?? [];
  }

  start(context: ExecutionContext): Execution {
    const { run, input } = context;
    const envId = run.agentConfig.environment_id;
    const env = envId ? this.environments.get(envId) : undefined;
    // A follow-up execution works in the directory the first one prepared.
    if (!env || input.number !== 1 || (env.repos.length === 0 && env.setupCommands.length === 0)) return this.inner.start(context);

    const workDir = runWorkDir(this.workRoot, run.id);
    mkdirSync(workDir, { recursive: true, mode: 0o700 });
    const files = prepareExecutionFiles(this.workRoot, run.id, input);
    const childEnv = commandEnv(process.env, run, join(workDir, 'mcp.json'), workDir, input.number, files, this.agentEnv);
    const record = (pid: number) => this.recordProcessGroup(run.id, { pgid: pid, startTime: processStartTime(pid) ?? null });
    const preparation = prepareWorkspace(env, workDir, childEnv, context.onOutput, this.timeoutMs, record);
    let agent: Execution | undefined;
    let cancelled = false;
    const done = preparation.done.then((failure): ExecutionOutcome | Promise<ExecutionOutcome> => {
      if (failure) return { state: 'FAILED', statusMessage: failure };
      if (cancelled) return { state: 'FAILED', statusMessage: { message: 'Cancelled.' } };
      agent = this.inner.start(context);
      if (agent.processGroup) this.recordProcessGroup(run.id, agent.processGroup);
      return agent.done;
    });
    return {
      done,
      deliver: (followup) => agent?.deliver?.(followup) ?? false,
      async cancel() {
        cancelled = true;
        await preparation.cancel();
        await agent?.cancel();
      },
    };
  }
}
