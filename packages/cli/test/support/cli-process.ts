import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built command, run exactly as a user runs it. */
export const BIN = fileURLToPath(new URL('../../dist/bin/agent-runs.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string>;
  /** Called once the process runs, e.g. to send it a signal later. */
  onSpawn?: (child: ChildProcess) => void;
  timeoutMs?: number;
}

/** A clean environment: no key or base URL of the machine leaks into a test. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(AGENT_RUNS_|WARP_|OZ_|FORCE_COLOR|NO_COLOR)/.test(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

/** Runs `agent-runs ...args` as a child process and collects its output. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: cleanEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

/** Resolves once the child's stderr contains `text`. */
export function stderrIncludes(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer | string) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve();
    });
  });
}
