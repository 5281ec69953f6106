import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatElapsed } from '@agent-runs/core';
import { commandEnv } from './command-env.js';
import { endGroup } from './process-group.js';
import type { Execution, ExecutionContext, ExecutionOutcome, RunExecutor } from './run-executor.js';

const STDERR_TAIL_CHARS = 2000;
const KILL_GRACE_MS = 2000;

export interface CommandExecutorOptions {
  /** The agent command line, run by the shell. */
  command: string;
  /** Parent of the per-run working directories. */
  workRoot: string;
  timeoutMs: number;
}

/**
 * Runs the configured agent command for each run: the prompt on stdin, the run in
 * environment variables, its MCP servers in `mcp.json`, in a working directory of its
 * own. Exit 0 is SUCCEEDED; anything else FAILED with the end of stderr.
 */
export class CommandExecutor implements RunExecutor {
  readonly name = 'command';

  constructor(private readonly options: CommandExecutorOptions) {}

  start({ run, onOutput }: ExecutionContext): Execution {
    const workDir = join(this.options.workRoot, run.id);
    mkdirSync(workDir, { recursive: true });
    const mcpConfigPath = join(workDir, 'mcp.json');
    writeFileSync(mcpConfigPath, `${JSON.stringify({ mcpServers: run.agentConfig.mcp_servers ?? {} }, null, 2)}\n`);

    const child = spawn(this.options.command, {
      shell: true,
      cwd: workDir,
      detached: true, // Its own process group, so cancel and timeout reach everything it starts.
      env: commandEnv(process.env, run, mcpConfigPath, workDir),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderrTail = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => onOutput(text, 'stdout'));
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      onOutput(text, 'stderr');
      stderrTail = (stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    child.stdin.on('error', () => {}); // The agent may exit without reading its prompt.
    child.stdin.end(run.prompt);

    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void endGroup(child, exited, KILL_GRACE_MS);
    }, this.options.timeoutMs);

    const done = exited.then(({ code, signal, error }): ExecutionOutcome => {
      clearTimeout(timer);
      if (error) {
        return { state: 'FAILED', statusMessage: { message: `The agent command could not start: ${error.message}`, error_code: 'internal_error', retryable: false } };
      }
      if (timedOut) {
        return {
          state: 'FAILED',
          statusMessage: { message: `The agent command ran longer than ${formatElapsed(this.options.timeoutMs)} and was stopped.`, error_code: 'internal_error', retryable: true },
        };
      }
      if (code === 0) return { state: 'SUCCEEDED' };
      const how = signal ? `was ended by ${signal}` : `exited with code ${code}`;
      const tail = stderrTail.trim();
      return {
        state: 'FAILED',
        statusMessage: { message: tail ? `The agent command ${how}: ${tail}` : `The agent command ${how}.`, retryable: false },
      };
    });
    return {
      done,
      cancel: async () => {
        clearTimeout(timer);
        await endGroup(child, exited, KILL_GRACE_MS);
      },
    };
  }
}
