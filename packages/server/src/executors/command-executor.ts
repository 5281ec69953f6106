import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatElapsed } from '@agent-runs/core';
import { deliverToInbox, prepareExecutionFiles, readAgentReport } from './agent-protocol.js';
import { shellLine, spawnAgent } from './agent-spawn.js';
import { commandEnv } from './command-env.js';
import { agentEnding, processTreeFile } from './process-tree.js';
import { giveDir, serverDir, writeAgentFile } from './agent-files.js';
import { NO_SANDBOX, type AgentSandbox } from './sandbox/agent-sandbox.js';
import type { NetworkPolicy } from './sandbox/network-policy.js';
import { runWorkDir } from './run-work-dir.js';
import { commandFiles } from './sandbox/command-files.js';
import { sandboxForRun } from './sandbox/principal-users.js';
import type { RunRecord } from '../store/run-record.js';
import { processStartTime } from '../domain/process-identity.js';
import type { Execution, ExecutionContext, ExecutionOutcome, RunExecutor } from './run-executor.js';

const STDERR_TAIL_CHARS = 2000;
/** How long a process group gets between SIGTERM and SIGKILL (the agent, and environment setup steps). */
export const KILL_GRACE_MS = 2000;
const OUTPUT_DRAIN_MS = 500;

export interface CommandExecutorOptions {
  /** The agent command line, run by the shell. */
  command: string;
  /** Parent of the per-run working directories. */
  workRoot: string;
  timeoutMs: number;
  /** Variables of the server's environment passed to the agent besides the allow-list. */
  agentEnv?: readonly string[];
  /** How the agent starts (sandbox, agent user, network); bare as the server's user when not given. */
  sandbox?: AgentSandbox | undefined;
  /** What the run's environment adds: its secrets as variables, its network policy. */
  runPolicy?: ((run: RunRecord) => RunPolicy) | undefined;
}

/** What a run's environment adds to its agent's start. */
export interface RunPolicy {
  /** Variables (the environment's named secrets). */
  env: Record<string, string>;
  network?: NetworkPolicy | undefined;
}

/**
 * Makes the run's working directory (kept across executions) and gives it to the agent
 * user; the work root is made traversable (not listable) when that user runs bare.
 */
export function prepareWorkDir(workRoot: string, runId: string, sandbox: AgentSandbox): string {
  serverDir(workRoot);
  if (sandbox.user && !sandbox.bwrap) chmodSync(workRoot, 0o711);
  const workDir = runWorkDir(workRoot, runId);
  serverDir(workDir);
  giveDir(workDir, sandbox.user);
  return workDir;
}

/**
 * Runs the configured agent command for each run: the prompt on stdin, the run in
 * environment variables, its MCP servers in `mcp.json`, in a working directory of its
 * own. Exit 0 is SUCCEEDED; anything else FAILED with the end of stderr.
 */
export class CommandExecutor implements RunExecutor {
  readonly name = 'command';

  constructor(private readonly options: CommandExecutorOptions) {}

  start({ run, input, onOutput }: ExecutionContext): Execution {
    const sandbox = sandboxForRun(this.options.sandbox ?? NO_SANDBOX, run);
    const workDir = prepareWorkDir(this.options.workRoot, run.id, sandbox);
    const mcpConfigPath = join(workDir, 'mcp.json');
    // It may hold the MCP servers' tokens: readable by the agent only; made fresh, so a link the agent left there is not followed.
    writeAgentFile(mcpConfigPath, `${JSON.stringify({ mcpServers: run.agentConfig.mcp_servers ?? {} }, null, 2)}\n`, sandbox.user);
    const files = prepareExecutionFiles(this.options.workRoot, run.id, input, sandbox.user);
    const policy = this.options.runPolicy?.(run) ?? { env: {} };

    const child = spawnAgent({
      ...shellLine(this.options.command),
      cwd: workDir,
      env: { ...commandEnv(process.env, run, mcpConfigPath, workDir, input.number, files, this.options.agentEnv), ...policy.env },
      sandbox,
      writable: [dirname(files.report), files.attachments],
      readOnly: commandFiles(this.options.command),
      network: policy.network,
    });
    let stderrTail = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => onOutput(text, 'stdout'));
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      onOutput(text, 'stderr');
      stderrTail = (stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    child.stdin.on('error', () => {}); // The agent may exit without reading its prompt.
    child.stdin.end(run.prompt);

    // 'exit', not 'close': a child the agent left running may hold the pipes open for ever.
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const pgid = child.pid;
    // In the sandbox the PID namespace holds the whole tree; bare, /proc is watched for it (and recorded for a restart).
    const end = agentEnding(pgid, !sandbox.bwrap, processTreeFile(this.options.workRoot, run.id), KILL_GRACE_MS);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void end();
    }, this.options.timeoutMs);

    const settled = exited.then(async (result) => {
      clearTimeout(timer);
      // The last output is read while the pipes drain, for a bounded moment.
      await Promise.race([closed, sleep(OUTPUT_DRAIN_MS)]);
      child.stdout.destroy();
      child.stderr.destroy();
      // What the agent left running in its group goes with it.
      void end();
      return result;
    });

    const done = settled.then(({ code, signal, error }): ExecutionOutcome => {
      const report = readAgentReport(files, input);
      for (const note of report.notes) onOutput(`[agent-runs] ${note}\n`);
      const outcome = this.outcome(code, signal, error, timedOut, stderrTail, report.result);
      return { ...outcome, artifacts: report.artifacts, takenFollowups: report.takenFollowups };
    });
    return {
      done,
      processGroup: pgid === undefined ? undefined : { pgid, startTime: processStartTime(pgid) ?? null },
      cancel: async () => {
        clearTimeout(timer);
        await end();
      },
      deliver: (followup) => deliverToInbox(files, followup),
    };
  }

  private outcome(
    code: number | null,
    signal: NodeJS.Signals | null,
    error: Error | undefined,
    timedOut: boolean,
    stderrTail: string,
    result: string | undefined,
  ): ExecutionOutcome {
    if (error) {
      return { state: 'FAILED', statusMessage: { message: `The agent command could not start: ${error.message}`, error_code: 'internal_error', retryable: false } };
    }
    if (timedOut) {
      return {
        state: 'FAILED',
        statusMessage: { message: `The agent command ran longer than ${formatElapsed(this.options.timeoutMs)} and was stopped.`, error_code: 'internal_error', retryable: true },
      };
    }
    if (code === 0) return { state: 'SUCCEEDED', ...(result ? { statusMessage: { message: result } } : {}) };
    const how = signal ? `was ended by ${signal}` : `exited with code ${code}`;
    const tail = stderrTail.trim();
    const message = result ?? (tail ? `The agent command ${how}: ${tail}` : `The agent command ${how}.`);
    return { state: 'FAILED', statusMessage: { message, retryable: false } };
  }
}
