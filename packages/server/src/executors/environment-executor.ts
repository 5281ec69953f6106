import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentRegistry } from '../sources/environment-registry.js';
import { commandEnv } from './command-env.js';
import { prepareWorkspace } from './prepare-workspace.js';
import type { Execution, ExecutionContext, ExecutionOutcome, RunExecutor } from './run-executor.js';
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
    private readonly environments: EnvironmentRegistry,
    private readonly workRoot: string,
    private readonly timeoutMs: number,
    /** Server variables passed on to the agent, and so to the setup commands. */
    private readonly agentEnv: readonly string[] = [],
  ) {
    this.name = inner.name;
  }

  check(prompt: string): string[] {
    return this.inner.check?.(prompt) ?? [];
  }

  start(context: ExecutionContext): Execution {
    const envId = context.run.agentConfig.environment_id;
    const env = envId ? this.environments.get(envId) : undefined;
    if (!env || (env.repos.length === 0 && env.setupCommands.length === 0)) return this.inner.start(context);

    const workDir = runWorkDir(this.workRoot, context.run.id);
    mkdirSync(workDir, { recursive: true });
    const childEnv = commandEnv(process.env, context.run, join(workDir, 'mcp.json'), workDir, this.agentEnv);
    const preparation = prepareWorkspace(env, workDir, childEnv, context.onOutput, this.timeoutMs);
    let agent: Execution | undefined;
    let cancelled = false;
    const done = preparation.done.then((failure): ExecutionOutcome | Promise<ExecutionOutcome> => {
      if (failure) return { state: 'FAILED', statusMessage: failure };
      if (cancelled) return { state: 'FAILED', statusMessage: { message: 'Cancelled.' } };
      agent = this.inner.start(context);
      return agent.done;
    });
    return {
      done,
      async cancel() {
        cancelled = true;
        await preparation.cancel();
        await agent?.cancel();
      },
    };
  }
}
