import type { HarnessName } from '../../domain/harness-config.js';
import type { HarnessStreamParser } from './harness-event.js';

/** What a driver needs to build one start of its CLI. */
export interface LaunchInput {
  /** The run's working directory. */
  workDir: string;
  /**
   * A private directory of the run for the harness's own state (sessions, settings), kept
   * across executions. What `launch` writes there (plain files and directories, secrets at
   * mode 0600) the executor then hands to the agent user; nothing there is a link or a FIFO
   * when `launch` is called.
   */
  stateDir: string;
  /** The model the run asks for, if any. */
  model: string | undefined;
  /** The run's `harness.reasoning_level`, if any. */
  effort: string | undefined;
  /** The session to resume (a follow-up), if the harness reported one before. */
  resumeSession: string | undefined;
  /** The system-prompt addition: the skill or base prompt. */
  systemPrompt: string | undefined;
  /** The run's MCP servers by name (contract form), if any. */
  mcpServers: Record<string, unknown> | undefined;
  /** Directories outside the working directory the harness may read (the run's attachments). */
  extraDirs: string[];
  /** The harness's key, when one was found (a named secret or an allowed variable). */
  key: string | undefined;
  /** The server variables the configuration passes to this harness (`harnesses.<name>.env`), for a driver that turns one into its CLI's configuration. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface HarnessLaunch {
  args: string[];
  /** Variables set for the CLI on top of the allow-listed ones. */
  env: Record<string, string>;
  /** A parser for this start's stream, when it depends on the start (the model it was given); else the driver's `parser()`. */
  parser?: HarnessStreamParser;
}

/** One harness CLI: how to start it headless, where its key goes, how to read its stream. */
export interface HarnessDriver {
  readonly name: HarnessName;
  /** The command looked up on PATH when the configuration names none. */
  readonly defaultCommand: string;
  /** What a user installs to get it (for the error of a server that cannot start it). */
  readonly installHint: string;
  /** The variables the CLI takes its key from; the first is where a named secret goes. */
  readonly keyVariables: readonly string[];
  /** The `harness_auth_secrets` member naming its secret, where the contract has one. */
  readonly authSecretField: string;
  /** Whether its end-of-turn totals count the whole (resumed) session rather than this start. */
  readonly sessionTotals: boolean;
  /**
   * Where its CLI reaches its model (`host:port`) when no `*_BASE_URL` variable it gets
   * points elsewhere: let through a sandbox whose network policy is `none` or an allow-list.
   */
  readonly modelHosts?: readonly string[];
  /** Whether its prompt goes on stdin (else `launch` puts it in the arguments). */
  launch(input: LaunchInput, prompt: string): HarnessLaunch & { stdin?: string };
  parser(): HarnessStreamParser;
}
