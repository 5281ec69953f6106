import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatElapsed } from '@agent-runs/core';
import type { RunStatusMessage } from '@agent-runs/core/contract';
import type { HarnessName } from '../../domain/harness-config.js';
import { processStartTime } from '../../domain/process-identity.js';
import { prepareExecutionFiles, protocolDir, readAgentReport } from '../agent-protocol.js';
import { spawnAgent } from '../agent-spawn.js';
import { commandEnv } from '../command-env.js';
import { endGroup } from '../process-group.js';
import type { Execution, ExecutionContext, ExecutionOutcome, RunExecutor } from '../run-executor.js';
import { runWorkDir } from '../run-work-dir.js';
import type { HarnessSetup } from './harness-setup.js';
import { changesPatch, recordChangesStart } from './changes-patch.js';
import { harnessPrompt } from './harness-prompt.js';
import { LineSplitter } from './line-splitter.js';
import { maskSecrets } from './mask-secrets.js';
import { UsageTally } from './usage-tally.js';

const KILL_GRACE_MS = 2000;
const OUTPUT_DRAIN_MS = 500;
/** The last lines a crash's status message quotes. */
const TAIL_LINES = 8;
const TAIL_CHARS = 2000;
/** Usage is stored at most this often while the harness runs (and once at its end). */
const USAGE_INTERVAL_MS = 250;
/** How long the end of an execution waits for its last usage to be stored. */
const STATE_WRITE_WAIT_MS = 5000;
/** Largest raw stream kept as the execution's transcript; the rest is not kept. */
export const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/** The raw stream of one execution of a harness, beside the run's protocol files. */
export function harnessTranscriptPath(workRoot: string, runId: string, execution: number): string {
  return join(protocolDir(workRoot, runId), 'executions', String(execution), 'harness-stream.jsonl');
}

export interface HarnessExecutorOptions {
  workRoot: string;
  timeoutMs: number;
  setup: HarnessSetup;
}

/**
 * Runs a harness CLI (Claude Code, Codex, Gemini CLI) headless in the run's working
 * directory: its JSON stream becomes output lines as it comes, its usage the run's
 * `request_usage` while it runs, its session id what a follow-up resumes.
 */
export class HarnessExecutor implements RunExecutor {
  readonly name: string;

  constructor(
    private readonly harness: HarnessName,
    private readonly options: HarnessExecutorOptions,
  ) {
    this.name = harness;
  }

  start(context: ExecutionContext): Execution {
    const { run, input, onOutput } = context;
    const { setup, workRoot } = this.options;
    const driver = setup.driver(this.harness)!;
    const command = setup.command(this.harness);
    const secretName = (run.agentConfig.harness_auth_secrets as Record<string, unknown> | undefined)?.[driver.authSecretField];
    const key = setup.key(this.harness, typeof secretName === 'string' ? secretName : undefined);
    const secrets = [...setup.secretValues(), ...(key ? [key.value] : [])];
    const mask = (text: string) => maskSecrets(text, secrets);
    const fail = (message: string): Execution => ({
      done: Promise.resolve({ state: 'FAILED', statusMessage: { message: mask(message), error_code: 'internal_error', retryable: false } }),
      cancel: async () => {},
    });
    const problem = setup.problem(this.harness, typeof secretName === 'string' ? secretName : undefined);
    if (problem || !command) return fail(`The ${this.harness} harness could not start: ${problem?.message ?? 'its CLI was not found'}.`);

    const workDir = runWorkDir(workRoot, run.id);
    mkdirSync(workDir, { recursive: true, mode: 0o700 });
    const files = prepareExecutionFiles(workRoot, run.id, input);
    // What the repositories hold now, so the end can hand back exactly what the agent changed.
    const changesStart = recordChangesStart(workDir);
    const stateDir = join(protocolDir(workRoot, run.id), 'harness', this.harness);
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const harness = run.agentConfig.harness;
    const resumeSession = input.number > 1 ? run.harnessSessionId : undefined;
    const launch = driver.launch(
      {
        workDir,
        stateDir,
        model: harness?.model_id || run.agentConfig.model_id || undefined,
        effort: harness?.reasoning_level || undefined,
        resumeSession,
        systemPrompt: run.agentConfig.base_prompt || undefined,
        mcpServers: run.agentConfig.mcp_servers as Record<string, unknown> | undefined,
        extraDirs: [files.attachments],
        key: key?.value,
        env: Object.fromEntries(setup.passedVariables(this.harness).map((name) => [name, setup.env[name]])),
      },
      harnessPrompt(run, input, files.attachments),
    );
    // The allow-listed variables and those the configuration passes; never the rest of the server's.
    const env = {
      ...commandEnv(setup.env, run, join(stateDir, 'mcp.json'), workDir, input.number, files, setup.passedVariables(this.harness)),
      ...launch.env,
    };
    const child = spawnAgent({ command, args: [...setup.settings(this.harness).args, ...launch.args], cwd: workDir, env });

    const transcript = createWriteStream(harnessTranscriptPath(workRoot, run.id, input.number), { mode: 0o600 });
    transcript.on('error', () => {});
    let transcriptBytes = 0;
    const tally = new UsageTally(run.requestUsage, resumeSession !== undefined && driver.sessionTotals);
    const parser = launch.parser ?? driver.parser();
    const tail: string[] = [];
    const remember = (line: string) => {
      if (!line.trim()) return;
      tail.push(line.length > TAIL_CHARS ? `${line.slice(0, TAIL_CHARS)}…` : line);
      if (tail.length > TAIL_LINES) tail.shift();
    };
    let result: { text: string; isError: boolean } | undefined;
    let stateWrites: Promise<void> = Promise.resolve();
    const writeState = (state: Parameters<NonNullable<ExecutionContext['onHarnessState']>>[0]) => {
      if (!context.onHarnessState) return;
      stateWrites = stateWrites.then(() => context.onHarnessState!(state)).catch(() => {});
    };
    let usageTimer: NodeJS.Timeout | undefined;
    let usageDirty = false;
    const flushUsage = () => {
      usageTimer = undefined;
      if (!usageDirty) return;
      usageDirty = false;
      writeState({ requestUsage: tally.toRequestUsage() });
    };
    const usageChanged = () => {
      usageDirty = true;
      usageTimer ??= setTimeout(flushUsage, USAGE_INTERVAL_MS);
    };

    const stdout = new LineSplitter((raw) => {
      const line = mask(raw);
      if (transcriptBytes < MAX_TRANSCRIPT_BYTES) {
        transcriptBytes += Buffer.byteLength(line) + 1;
        transcript.write(`${line}\n`);
      }
      for (const event of parser.line(line)) {
        switch (event.kind) {
          case 'output':
            onOutput(event.text, 'stdout');
            remember(event.text.trimEnd());
            break;
          case 'session':
            writeState({ harnessSessionId: event.id });
            break;
          case 'message-usage':
            tally.message(event.messageId, event.model, event.tokens);
            usageChanged();
            break;
          case 'totals':
            tally.totals(event.byModel, event.totalUsd);
            usageChanged();
            break;
          case 'result':
            result = { text: event.text, isError: event.isError };
            break;
        }
      }
    });
    const stderr = new LineSplitter((raw) => {
      const line = mask(raw);
      onOutput(`${line}\n`, 'stderr');
      remember(line);
    });
    child.stdout.setEncoding('utf8').on('data', (text: string) => stdout.push(text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => stderr.push(text));
    child.stdin.on('error', () => {});
    child.stdin.end(launch.stdin ?? '');

    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const pgid = child.pid;
    let ending: Promise<void> | undefined;
    const end = () => (ending ??= pgid === undefined ? Promise.resolve() : endGroup(pgid, KILL_GRACE_MS));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void end();
    }, this.options.timeoutMs);

    const done = exited.then(async ({ code, signal, error }): Promise<ExecutionOutcome> => {
      clearTimeout(timer);
      await Promise.race([closed, sleep(OUTPUT_DRAIN_MS)]);
      stdout.end();
      stderr.end();
      child.stdout.destroy();
      child.stderr.destroy();
      transcript.end();
      void end();
      if (usageTimer) clearTimeout(usageTimer);
      flushUsage();
      await Promise.race([stateWrites, sleep(STATE_WRITE_WAIT_MS)]);
      const report = readAgentReport(files, input);
      const changes = changesPatch(workDir, changesStart);
      if (changes.note) onOutput(`[agent-runs] ${changes.note}\n`);
      if (changes.artifact) report.artifacts.push(changes.artifact);
      const outcome = this.outcome({ code, signal, error, timedOut, result, tail });
      const statusMessage = outcome.statusMessage ? { ...outcome.statusMessage, message: mask(outcome.statusMessage.message) } : undefined;
      return { ...outcome, ...(statusMessage ? { statusMessage } : {}), artifacts: report.artifacts, takenFollowups: report.takenFollowups };
    });
    return {
      done,
      processGroup: pgid === undefined ? undefined : { pgid, startTime: processStartTime(pgid) ?? null },
      cancel: async () => {
        clearTimeout(timer);
        await end();
      },
      // A headless CLI takes no input mid-turn: a follow-up waits for the next execution, which resumes the session.
      deliver: () => false,
    };
  }

  private outcome(ended: {
    code: number | null;
    signal: NodeJS.Signals | null;
    error: Error | undefined;
    timedOut: boolean;
    result: { text: string; isError: boolean } | undefined;
    tail: string[];
  }): ExecutionOutcome {
    const { code, signal, error, timedOut, result, tail } = ended;
    const failed = (message: string, extra: Partial<RunStatusMessage> = {}): ExecutionOutcome => ({ state: 'FAILED', statusMessage: { message, retryable: false, ...extra } });
    if (error) return failed(`The ${this.harness} CLI could not start: ${error.message}`, { error_code: 'internal_error' });
    if (timedOut) return failed(`The ${this.harness} harness ran longer than ${formatElapsed(this.options.timeoutMs)} and was stopped.`, { error_code: 'internal_error', retryable: true });
    if (result && !result.isError && code === 0) return { state: 'SUCCEEDED', ...(result.text ? { statusMessage: { message: result.text } } : {}) };
    if (result?.isError) return failed(`The ${this.harness} harness failed: ${result.text || 'it reported an error'}`);
    if (code === 0) return { state: 'SUCCEEDED' };
    const how = signal ? `was ended by ${signal}` : `exited with code ${code}`;
    const last = tail.join('\n').slice(-TAIL_CHARS);
    return failed(last ? `The ${this.harness} CLI ${how}; its last lines:\n${last}` : `The ${this.harness} CLI ${how}.`);
  }
}

/** The raw harness streams of a run's executions, as transcript lines (`kind: "harness"`), oldest first. */
export function harnessTranscriptLines(workRoot: string, runId: string): string[] {
  const lines: string[] = [];
  for (let execution = 1; ; execution++) {
    const path = harnessTranscriptPath(workRoot, runId, execution);
    if (!existsSync(path)) {
      // An execution that was not a harness's has no stream; the next one may.
      if (!existsSync(join(protocolDir(workRoot, runId), 'executions', String(execution)))) return lines;
      continue;
    }
    for (const line of readFileSync(path, 'utf8').split('\n')) if (line) lines.push(JSON.stringify({ kind: 'harness', execution, line }));
  }
}
