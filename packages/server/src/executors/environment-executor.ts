import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freshAgentDir, giveTree, serverDir, writeAgentFile } from './agent-files.js';
import { readAgentFile } from './agent-tree.js';
import type { RunPolicy } from './run-policy.js';
import { NO_SANDBOX, type AgentSandbox } from './sandbox/agent-sandbox.js';
import { sandboxForRun } from './sandbox/principal-users.js';
import type { EnvironmentConfig } from '../domain/server-config.js';
import type { AgentUser } from './sandbox/agent-user.js';
import { prepareExecutionFiles, protocolDir } from './agent-protocol.js';
import { commandEnv } from './command-env.js';
import { processStartTime } from '../domain/process-identity.js';
import { prepareWorkspace } from './prepare-workspace.js';
import type { Execution, ExecutionContext, ExecutionOutcome, ProcessGroupRecord, RunExecutor, WorkspaceRestore } from './run-executor.js';
import { applyPatches, restoredNote, workspaceToRestore } from './restore-workspace.js';
import { runWorkDir } from './run-work-dir.js';

/** Where the server notes a run's environment setup: `started` while it has not succeeded, `done` after. */
const setupNote = (workRoot: string, runId: string) => join(protocolDir(workRoot, runId), 'environment-setup');

/**
 * Wraps the command executor: a run with `config.environment_id` first gets its working
 * directory prepared (repositories cloned, setup commands run); the agent starts only
 * after that succeeds, and a failed setup ends the run FAILED naming the step. A follow-up
 * works in the directory the setup prepared; after a setup that failed, was cancelled or was
 * cut short, it starts from an empty directory and runs the setup again first.
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
    /** How setup steps start: sandboxed as the agent is. */
    private readonly sandbox: AgentSandbox = NO_SANDBOX,
    /** The environment's secrets and network policy, which setup steps get too. */
    private readonly runPolicy?: (run: ExecutionContext['run']) => RunPolicy,
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
    // A follow-up whose working directory is on another machine: made again here, as a first execution's, then patched.
    const restore = workspaceToRestore(this.workRoot, context);
    if (!env || (env.repos.length === 0 && env.setupCommands.length === 0)) {
      if (restore) this.restore(context, restore, undefined, sandboxForRun(this.sandbox, run).user);
      return this.inner.start(context);
    }
    const note = setupNote(this.workRoot, run.id);
    // A follow-up execution works in the directory an earlier one prepared (a run from before
    // the note was kept has none: its first execution's setup is taken as done).
    const retry = input.number !== 1 && (restore !== undefined || readAgentFile(this.workRoot, note, 64).text === 'started');
    if (input.number !== 1 && !retry) return this.inner.start(context);

    const workDir = runWorkDir(this.workRoot, run.id);
    // As the agent will run (its principal's own uid with --agent-uid-range), so the agent owns what setup made.
    const sandbox = sandboxForRun(this.sandbox, run);
    serverDir(this.workRoot);
    // The agent user, bare, must pass through to its own directory (it cannot list the others).
    if (sandbox.user && !sandbox.bwrap) chmodSync(this.workRoot, 0o711);
    // The server's until its repositories are cloned into it; then the agent user's (prepareWorkspace).
    // What an unfinished setup left (a clone, half a build) goes: the setup starts again from nothing.
    if (retry) freshAgentDir(workDir, undefined);
    serverDir(workDir);
    const files = prepareExecutionFiles(this.workRoot, run.id, input, sandbox.user);
    writeAgentFile(note, 'started', undefined);
    const policy = this.runPolicy?.(run) ?? { env: {} };
    const childEnv = { ...commandEnv(process.env, run, join(workDir, 'mcp.json'), workDir, input.number, files, this.agentEnv), ...policy.env };
    const record = (pid: number) => this.recordProcessGroup(run.id, { pgid: pid, startTime: processStartTime(pid) ?? null });
    const spawnOptions = { sandbox, writable: [dirname(files.report), files.attachments], network: policy.network };
    const preparation = prepareWorkspace(env, workDir, childEnv, context.onOutput, this.timeoutMs, record, spawnOptions);
    let agent: Execution | undefined;
    let cancelled = false;
    const done = preparation.done.then((failure): ExecutionOutcome | Promise<ExecutionOutcome> => {
      if (failure) return { state: 'FAILED', statusMessage: failure };
      if (cancelled) return { state: 'FAILED', statusMessage: { message: 'Cancelled.' } };
      writeAgentFile(note, 'done', undefined);
      if (restore) this.restore(context, restore, envId, sandbox.user);
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

  /** Applies the run's patches to the working directory (made now when there is no checkout), and says what was restored in the run's output. */
  private restore(context: ExecutionContext, restore: WorkspaceRestore, checkout: string | undefined, owner?: AgentUser): void {
    const workDir = runWorkDir(this.workRoot, context.run.id);
    serverDir(this.workRoot);
    serverDir(workDir);
    const patches = applyPatches(workDir, restore.patches);
    // What the patches wrote is the agent's, as the checkout is.
    giveTree(this.workRoot, workDir, owner);
    context.onOutput(restoredNote(restore, { ...(checkout ? { checkout } : {}), patches, harnessSessionId: context.run.harnessSessionId }));
  }
}
