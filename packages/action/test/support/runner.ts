/**
 * Runs the bundled action the way the GitHub runner does: `node dist/index.js` with the
 * inputs as INPUT_* variables (action.yml defaults filled in), and GITHUB_OUTPUT,
 * GITHUB_STATE and GITHUB_STEP_SUMMARY files; then the post step with the saved state
 * as STATE_* variables.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const BUNDLE = join(ROOT, 'dist', 'index.js');

/** `default:` of every input in action.yml, read as the runner reads it. */
export function actionDefaults(): Record<string, string> {
  const defaults: Record<string, string> = {};
  let section = '';
  let input = '';
  for (const line of readFileSync(join(ROOT, 'action.yml'), 'utf8').split('\n')) {
    const top = /^(\w[\w-]*):/.exec(line);
    if (top) section = top[1]!;
    const name = /^ {2}([\w-]+):\s*$/.exec(line);
    if (name) input = name[1]!;
    const def = /^ {4}default:\s*(.*)$/.exec(line);
    if (section === 'inputs' && def) defaults[input] = def[1]!.trim().replace(/^'(.*)'$/, '$1');
  }
  return defaults;
}

/** Parses a GITHUB_OUTPUT / GITHUB_STATE file: `name=value` lines and `name<<DELIM` heredocs; the last value wins. */
export function parseFileCommands(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc;
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) body.push(lines[i]!);
      if (i >= lines.length) throw new Error(`unterminated value for ${name} (delimiter ${delimiter})`);
      values[name!] = body.join('\n');
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`not a file command line: ${line}`);
    values[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return values;
}

export interface StepResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
  /** The `::error::` message, decoded, if the step failed. */
  error: string | undefined;
  durationMs: number;
  /** Date.now() when the process ended. */
  endedAt: number;
}

export interface StepOptions {
  inputs?: Record<string, string>;
  /** Saved state of the main step, passed to the post step as STATE_*. */
  state?: Record<string, string>;
  /** Extra environment (GITHUB_* context, proxies...). */
  env?: Record<string, string>;
  /** Called once the process has started, e.g. to signal it. */
  onStart?: (child: ChildProcess, output: () => string) => void;
  timeoutMs?: number;
  /** What node is started with instead of the bundle (a runner that imports it, say). */
  nodeArgs?: string[];
}

/** The environment variable the runner sets for an input. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

const decode = (text: string) => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

export async function runStep(options: StepOptions = {}): Promise<StepResult> {
  const dir = mkdtempSync(join(tmpdir(), 'action-step-'));
  const files = { output: join(dir, 'output'), state: join(dir, 'state'), summary: join(dir, 'summary') };
  for (const file of Object.values(files)) writeFileSync(file, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: dir,
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: files.state,
    GITHUB_STEP_SUMMARY: files.summary,
    ...options.env,
  };
  for (const [name, value] of Object.entries({ ...actionDefaults(), ...options.inputs })) env[inputVariable(name)] = value;
  for (const [name, value] of Object.entries(options.state ?? {})) env[`STATE_${name}`] = value;

  const started = Date.now();
  const child = spawn(process.execPath, options.nodeArgs ?? [BUNDLE], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  options.onStart?.(child, () => stdout);
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  clearTimeout(killer);
  const endedAt = Date.now();
  const durationMs = endedAt - started;
  const result: StepResult = {
    code,
    signal,
    stdout,
    stderr,
    outputs: parseFileCommands(readFileSync(files.output, 'utf8')),
    state: parseFileCommands(readFileSync(files.state, 'utf8')),
    summary: readFileSync(files.summary, 'utf8'),
    error: /^::error::(.*)$/m.exec(stdout)?.[1] !== undefined ? decode(/^::error::(.*)$/m.exec(stdout)![1]!) : undefined,
    durationMs,
    endedAt,
  };
  rmSync(dir, { recursive: true, force: true });
  return result;
}

/** Waits until the step's output contains `text`. */
export async function waitForOutput(output: () => string, text: string | RegExp, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(typeof text === 'string' ? output().includes(text) : text.test(output()))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(text)} in:\n${output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A line of the step's stdout that the runner would act on as a workflow command. */
export interface WorkflowCommand {
  command: string;
  /** `key=value` properties, as written. */
  properties: string;
  data: string;
  line: string;
}

/**
 * The workflow commands the runner would act on in `stdout`, parsed as the runner does:
 * `::name props::data` after leading whitespace, the older `##[name props]data` anywhere in
 * a line, and nothing between `::stop-commands::<token>` and `::<token>::` but the resume.
 */
export function workflowCommands(stdout: string): WorkflowCommand[] {
  const acted: WorkflowCommand[] = [];
  let stopToken: string | undefined;
  for (const line of stdout.split('\n')) {
    const command = parseCommandLine(line.replace(/\r$/, ''));
    if (!command) continue;
    if (stopToken !== undefined) {
      if (command.command === stopToken) stopToken = undefined;
      continue;
    }
    if (command.command === 'stop-commands') stopToken = command.data;
    acted.push(command);
  }
  return acted;
}

function parseCommandLine(line: string): WorkflowCommand | undefined {
  const v2 = /^::([^\s:]+)(?: ([^:]*))?::(.*)$/.exec(line.trimStart());
  if (v2) return { command: v2[1]!.toLowerCase(), properties: v2[2] ?? '', data: v2[3]!, line };
  const v1 = /##\[([^\s\]]+)(?: ([^\]]*))?\](.*)$/.exec(line);
  if (v1) return { command: v1[1]!.toLowerCase(), properties: v1[2] ?? '', data: v1[3]!, line };
  return undefined;
}
