import { spawn } from 'node:child_process';
import { plainText } from '../../domain/one-line.js';

/** What an operator's command (the dispatch or the cancel command) came to. */
export type OperatorCommandResult =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; stderr: string[] }
  | { kind: 'timed-out'; stderr: string[] }
  | { kind: 'not-started'; reason: string };

/** What is kept of the command's stderr: its last lines, each cut, as a status message can hold them. */
const TAIL_LINES = 5;
const TAIL_LINE_CHARS = 200;
const TAIL_BYTES = 8 * 1024;

export interface OperatorCommand {
  path: string;
  args: string[];
  /** Written to its stdin, then stdin is closed. */
  stdin: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/**
 * Runs an operator's command and waits for its exit, at most `timeoutMs` (then its process
 * group is killed). It is waited for to exit, not for its output to close: a command that
 * starts something detached that keeps its stderr open (the entrypoint, in the background)
 * is done when it exits. Its stdout is not read; the last lines of its stderr are kept,
 * without control characters.
 */
export function runOperatorCommand(o: OperatorCommand): Promise<OperatorCommandResult> {
  return new Promise((resolve) => {
    let child;
    try {
      // Its own process group: a timeout ends what it started in the foreground too.
      child = spawn(o.path, o.args, { stdio: ['pipe', 'ignore', 'pipe'], env: o.env, detached: true });
    } catch (error) {
      return resolve({ kind: 'not-started', reason: (error as Error).message });
    }
    let tail = Buffer.alloc(0);
    child.stderr!.on('data', (chunk: Buffer) => {
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > TAIL_BYTES) tail = tail.subarray(tail.length - TAIL_BYTES);
    });
    const lines = () =>
      tail
        .toString('utf8')
        .split(/\r?\n/)
        .map((line) => plainText(line).trim().slice(0, TAIL_LINE_CHARS))
        .filter(Boolean)
        .slice(-TAIL_LINES);
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Gone already.
      }
      done({ kind: 'timed-out', stderr: lines() });
    }, o.timeoutMs);
    let settled = false;
    const done = (result: OperatorCommandResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // What a detached grandchild keeps open is not waited for.
      child.stderr!.destroy();
      resolve(result);
    };
    child.once('error', (error) => done({ kind: 'not-started', reason: (error as NodeJS.ErrnoException).code ?? error.message }));
    // Its stderr may still hold the last lines it wrote: read what is there before settling.
    child.once('exit', (code, signal) => setImmediate(() => done({ kind: 'exited', code, signal, stderr: lines() })));
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(o.stdin);
  });
}

/** One line for a status message or a log: how the command ended, and its stderr's last lines. */
export function describeResult(what: string, result: OperatorCommandResult, timeoutMs: number): string {
  const said = (stderr: string[]) => (stderr.length ? `; its stderr ended with: ${stderr.join(' | ')}` : '');
  if (result.kind === 'not-started') return `${what} could not be started (${plainText(result.reason).slice(0, 200)})`;
  if (result.kind === 'timed-out') return `${what} did not exit within ${Math.round(timeoutMs / 1000)} s and was killed${said(result.stderr)}`;
  return `${what} ${result.code === null ? `was ended by ${result.signal ?? 'a signal'}` : `exited with code ${result.code}`}${said(result.stderr)}`;
}

/**
 * The operator commands' environment: the worker's own (their scheduler's address and
 * credentials are the operator's to give), less the worker token's variable and any variable
 * holding the worker token or a named secret's value (a secret read `from_env`): those reach
 * the remote side on stdin only, and only the run's own.
 */
export function operatorEnv(base: NodeJS.ProcessEnv, tokenVariable: string, hidden: readonly string[]): NodeJS.ProcessEnv {
  const secret = new Set(hidden.filter(Boolean));
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (name === tokenVariable || value === undefined || secret.has(value)) continue;
    env[name] = value;
  }
  return env;
}
