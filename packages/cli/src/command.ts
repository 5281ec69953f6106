import type { IssueNames } from '@agent-runs/core';
import type { AgentRunsClient } from '@agent-runs/core';
import type { FlagSpecs } from './flags/flag-spec.js';
import type { ParsedFlags } from './flags/parsed-flags.js';
import type { Io } from './io.js';

/** What a command gets besides its flags. */
export interface CommandContext {
  io: Io;
  /** A client for --base-url/--api-key (or the environment), identified as the CLI. */
  client(): AgentRunsClient;
  /** How to write this command in a hint, e.g. `agent-runs` or `node dist/bin/agent-runs.js`. */
  invocation: string;
  /** The global flags to repeat in a hint so that it reaches the same server (never the key). */
  targetFlags: string;
}

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** After the command name in the usage line, e.g. `<run-id> [flags]`. */
  usage: string;
  /** A paragraph after the usage line. */
  description?: string;
  flags: FlagSpecs;
  /** Whether positional arguments are allowed. */
  positionals: boolean;
  examples: string[];
  /** Whether the command talks to the API (and so takes --base-url/--api-key). */
  usesApi: boolean;
  /** Which flag sets each request field: a server's 400 naming a field is told by its flag too. */
  issueNames?: IssueNames;
  /** Resolves with the exit code. */
  run(flags: ParsedFlags, ctx: CommandContext): Promise<number>;
  /** For a command that parses its own arguments (serve: the server's parser); replaces `run`. */
  runWithArgs?(argv: string[], ctx: CommandContext): Promise<number>;
  /** Help text built by the command itself, instead of from `flags`. */
  help?(invocation: string): Promise<string>;
}
