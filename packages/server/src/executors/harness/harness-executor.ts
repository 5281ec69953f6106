import { createWriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HarnessName } from '../../domain/harness-config.js';
import { prepareExecutionFiles, protocolDir, readAgentReport } from '../agent-protocol.js';
import { createServerFile, giveTree, reclaimTree, serverDir } from '../agent-files.js';
import { agentPathExists, readAgentFile } from '../agent-tree.js';
import { exitedCleanly, superviseAgent, type AgentExit } from '../agent-process.js';
import { exitOutcome } from '../exit-outcome.js';
import { prepareWorkDir } from '../run-work-dir.js';
import type { RunPolicy } from '../run-policy.js';
import { NO_SANDBOX, type AgentSandbox } from '../sandbox/agent-sandbox.js';
import { installRoot } from '../sandbox/install-root.js';
import { sandboxForRun } from '../sandbox/principal-users.js';
import { allowAlso, urlHost, withServerReach } from '../sandbox/network-policy.js';
import type { RunRecord } from '../../store/runs/run-record.js';
import { commandEnv } from '../command-env.js';
import { agentRunsMcpFiles, withAgentRunsMcp } from './agent-runs-mcp.js';
import { processTreeFile } from '../process-tree.js';
import type { Execution, ExecutionContext, ExecutionOutcome, RunExecutor } from '../run-executor.js';
import type { HarnessDriver } from './harness-driver.js';
import type { HarnessSetup } from './harness-setup.js';
import { addChangesPatch, gitAsAgent, recordChangesStart } from '../changes-patch.js';
import { harnessPrompt } from './harness-prompt.js';
import { harnessTurnsPath, TurnsWriter } from './harness-turns.js';
import { LineSplitter } from './line-splitter.js';
import { UsageTally } from './usage-tally.js';
import { SecretMask } from '../../domain/secret-mask.js';

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
  /** How the CLI starts (sandbox, agent user, network), as every agent does; bare as the server's user when not given. */
  sandbox?: AgentSandbox | undefined;
  /** What the run's environment adds: its secrets as variables, its network policy. */
  runPolicy?: ((run: RunRecord) => RunPolicy) | undefined;
  /** The bundled MCP server of `@agent-runs/mcp`, given to each run bound to its run token (none: no such entry). */
  agentRunsMcp?: string | undefined;
}

/** The harness's own state of a run (its sessions, settings, MCP configuration), kept across executions. */
export function harnessStateDir(workRoot: string, runId: string, harness: string): string {
  return join(protocolDir(workRoot, runId), 'harness', harness);
}

/**
 * Where the CLI reaches its model: the hosts of the `*_BASE_URL` variables it gets (only the
 * operator passes those: `configured`), else the driver's defaults.
 */
export function modelHosts(driver: HarnessDriver, env: NodeJS.ProcessEnv): { hosts: string[]; configured: boolean } {
  const hosts = Object.entries(env).flatMap(([name, value]) => (name.endsWith('_BASE_URL') && value ? (urlHost(value) ?? []) : []));
  return hosts.length > 0 ? { hosts: [...new Set(hosts)], configured: true } : { hosts: [...(driver.modelHosts ?? [])], configured: false };
}

/** `home` when it is the state directory or inside it, else undefined (the sandbox's private one). */
function insideState(home: string | undefined, stateDir: string): string | undefined {
  return home !== undefined && (home === stateDir || home.startsWith(`${stateDir}/`)) ? home : undefined;
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
    // Checked again here, not only at create: a stored run (a schedule's, a follow-up's) gets only a secret it may name.
    const secretName = setup.secretName(this.harness, run.agentConfig);
    const scope = setup.secretScope(run.agentConfig, run.creator.uid);
    const key = setup.key(this.harness, secretName, scope);
    const secrets = [...setup.secretValues(), ...(key ? [key.value] : []), ...(context.agentApi ? [context.agentApi.token] : [])];
    // The harness's key in every form it may be printed in (base64, URL- or JSON-escaped), as declared secrets are.
    const masker = new SecretMask(secrets);
    const mask = (text: string) => masker.mask(text);
    const fail = (message: string): Execution => ({
      done: Promise.resolve({ state: 'FAILED', statusMessage: { message: mask(message), error_code: 'internal_error', retryable: false } }),
      cancel: async () => {},
    });
    const problem = setup.problem(this.harness, secretName, scope);
    if (problem || !command) return fail(`The ${this.harness} harness could not start: ${problem?.message ?? 'its CLI was not found'}.`);

    // As its principal's own user where the server gives each one a uid (--agent-uid-range), as command agents are.
    const sandbox = sandboxForRun(this.options.sandbox ?? NO_SANDBOX, run);
    const prepared = this.prepare(context, sandbox, driver, key?.value);
    if (typeof prepared === 'string') return fail(`The ${this.harness} harness could not start: ${prepared}.`);
    const { workDir, files, stateDir, launch, git, changesStart } = prepared;
    const policy = this.options.runPolicy?.(run) ?? { env: {} };
    // The allow-listed variables and those the configuration passes; never the rest of the server's.
    const cliEnv = {
      ...commandEnv(setup.env, run, join(stateDir, 'mcp.json'), workDir, input.number, files, setup.passedVariables(this.harness), context.agentApi),
      // Bare as another user, the server's HOME is not its to write: its own state directory is (the sandbox gives a private one).
      ...(sandbox.user && !sandbox.bwrap ? { HOME: stateDir } : {}),
      ...launch.env,
    };
    // The model endpoint is let through a `none` or allow-list policy, and nothing more; the
    // operator's own one (a `*_BASE_URL`) even on loopback, at exactly its host and port.
    const model = modelHosts(driver, cliEnv);
    const network = withServerReach(allowAlso(policy.network ?? sandbox.network, model.hosts, { endpoints: model.configured }), context.agentApi);
    // The CLI by its real path, its install (the npm tree it lives in) read-only in the sandbox.
    const cli = installRoot(command);
    const resumeSession = input.number > 1 ? run.harnessSessionId : undefined;

    // Made before the agent starts, in its fresh execution directory: nothing it plants there is followed.
    const transcript = createWriteStream('', { fd: prepared.transcriptFd });
    transcript.on('error', () => {});
    let transcriptBytes = 0;
    const turns = new TurnsWriter(prepared.turnsFd);
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
      // Told at once (the budget stops the agent within this update); stored at most every USAGE_INTERVAL_MS.
      context.onUsage?.(tally.toRequestUsage());
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
            if (event.part) turns.add(event.part, event.text);
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
    const agent = superviseAgent(
      {
        command: cli.command,
        args: [...setup.settings(this.harness).args, ...launch.args],
        cwd: workDir,
        env: { ...policy.env, ...cliEnv },
        sandbox,
        writable: [dirname(files.report), files.attachments, stateDir],
        readOnly: [...cli.readOnly, ...(context.agentApi ? agentRunsMcpFiles(this.options.agentRunsMcp) : [])],
        network,
        // A driver that points HOME at its state directory keeps it in the sandbox too.
        home: insideState(launch.env['HOME'], stateDir),
      },
      {
        timeoutMs: this.options.timeoutMs,
        stdin: launch.stdin,
        treeRecord: processTreeFile(workRoot, run.id),
        onStdout: (text) => stdout.push(text),
        onStderr: (text) => stderr.push(text),
      },
    );

    const done = agent.exited.then(async (exit): Promise<ExecutionOutcome> => {
      stdout.end();
      stderr.end();
      transcript.end();
      const turnsWritten = turns.end();
      if (usageTimer) clearTimeout(usageTimer);
      flushUsage();
      await Promise.race([Promise.all([stateWrites, turnsWritten]), sleep(STATE_WRITE_WAIT_MS)]);
      const report = readAgentReport(files, input);
      addChangesPatch(report.artifacts, workDir, changesStart, git, (note) => onOutput(`[agent-runs] ${note}\n`));
      const outcome = this.outcome(exit, result, tail);
      const statusMessage = outcome.statusMessage ? { ...outcome.statusMessage, message: mask(outcome.statusMessage.message) } : undefined;
      return { ...outcome, ...(statusMessage ? { statusMessage } : {}), artifacts: report.artifacts, takenFollowups: report.takenFollowups };
    });
    return {
      done,
      processGroup: agent.processGroup,
      cancel: () => agent.end(),
      // A headless CLI takes no input mid-turn: a follow-up waits for the next execution, which resumes the session.
      deliver: () => false,
    };
  }

  /**
   * The run's directories as the agent gets them: its working directory and execution files
   * (the agent user's), the harness's state directory cleared of anything an earlier agent
   * planted, written by the driver, then handed to the agent user; a problem as text.
   */
  private prepare(context: ExecutionContext, sandbox: AgentSandbox, driver: HarnessDriver, key: string | undefined) {
    const { run, input } = context;
    const { workRoot, setup } = this.options;
    try {
      const workDir = prepareWorkDir(workRoot, run.id, sandbox);
      const files = prepareExecutionFiles(workRoot, run.id, input, sandbox.user);
      const stateDir = harnessStateDir(workRoot, run.id, this.harness);
      serverDir(dirname(stateDir), sandbox.user ? 0o711 : 0o700);
      reclaimTree(workRoot, stateDir);
      // What the repositories hold now, so the end can hand back exactly what the agent changed.
      const git = gitAsAgent(sandbox, workDir);
      const changesStart = recordChangesStart(workRoot, workDir, git);
      const harness = run.agentConfig.harness;
      const launch = driver.launch(
        {
          workDir,
          stateDir,
          model: harness?.model_id || run.agentConfig.model_id || undefined,
          effort: harness?.reasoning_level || undefined,
          resumeSession: input.number > 1 ? run.harnessSessionId : undefined,
          systemPrompt: run.agentConfig.base_prompt || undefined,
          mcpServers: withAgentRunsMcp(run.agentConfig.mcp_servers as Record<string, unknown> | undefined, context.agentApi, this.options.agentRunsMcp, run.id),
          extraDirs: [files.attachments],
          key,
          env: Object.fromEntries(setup.passedVariables(this.harness).map((name) => [name, setup.env[name]])),
        },
        harnessPrompt(run, input, files.attachments),
      );
      // Its state, and what the driver just wrote there (mcp.json with its tokens), is the agent user's alone.
      giveTree(workRoot, stateDir, sandbox.user);
      const transcriptFd = createServerFile(harnessTranscriptPath(workRoot, run.id, input.number));
      const turnsFd = createServerFile(harnessTurnsPath(workRoot, run.id, input.number));
      return { workDir, files, stateDir, launch, git, changesStart, transcriptFd, turnsFd };
    } catch (error) {
      return (error as Error).message;
    }
  }

  private outcome(exit: AgentExit, result: { text: string; isError: boolean } | undefined, tail: string[]): ExecutionOutcome {
    // A harness that says its turn failed failed, whatever its exit code.
    if (result?.isError && !exit.error && !exit.timedOut) {
      return { state: 'FAILED', statusMessage: { message: `The ${this.harness} harness failed: ${result.text || 'it reported an error'}`, retryable: false } };
    }
    const last = tail.join('\n').slice(-TAIL_CHARS);
    return exitOutcome(exit, this.options.timeoutMs, `The ${this.harness} CLI`, {
      result: exitedCleanly(exit) ? result?.text || undefined : undefined,
      lastWords: last ? `; its last lines:\n${last}` : undefined,
    });
  }
}

/** One executor per known harness, each wrapped by `wrap` (the environment preparation). */
export function harnessExecutors(
  setup: HarnessSetup,
  wrap: (inner: RunExecutor) => RunExecutor,
  options: Omit<HarnessExecutorOptions, 'setup'>,
): Map<HarnessName, RunExecutor> {
  return new Map(setup.names().map((name) => [name, wrap(new HarnessExecutor(name, { ...options, setup }))]));
}

/** The raw harness streams of a run's executions, as transcript lines (`kind: "harness"`), oldest first. */
export function harnessTranscriptLines(workRoot: string, runId: string): string[] {
  const lines: string[] = [];
  for (let execution = 1; ; execution++) {
    const path = harnessTranscriptPath(workRoot, runId, execution);
    if (!agentPathExists(workRoot, path)) {
      // An execution that was not a harness's has no stream; the next one may.
      if (!agentPathExists(workRoot, join(protocolDir(workRoot, runId), 'executions', String(execution)))) return lines;
      continue;
    }
    for (const line of readAgentFile(workRoot, path, MAX_TRANSCRIPT_BYTES).text.split('\n')) if (line) lines.push(JSON.stringify({ kind: 'harness', execution, line }));
  }
}
