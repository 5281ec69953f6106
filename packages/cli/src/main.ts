import { apiKeyFromEnv, type AgentRunsClient } from '@agent-runs/core';
import type { Command, CommandContext } from './command.js';
import { COMMANDS } from './commands/index.js';
import { reportError } from './error-report.js';
import { EXIT } from './exit-codes.js';
import { GLOBAL_FLAGS } from './flags/flag-spec.js';
import { parseFlags } from './flags/parse-flags.js';
import { splitCommand } from './flags/split-command.js';
import { commandHelp, mainHelp } from './help.js';
import { processIo, type Io } from './io.js';
import { baseUrlSetBy, makeClient, targetFromFlags } from './make-client.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

export interface MainOptions {
  io?: Io;
  /** How hints spell the command; default `agent-runs`. */
  invocation?: string;
}

/** Runs the command line `argv` (without node and the script) and resolves with the exit code. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const io = options.io ?? processIo();
  const invocation = options.invocation ?? 'agent-runs';
  const { name, rest } = splitCommand(argv);
  const command: Command | undefined = COMMANDS.find((c) => c.name === name);
  let client: AgentRunsClient | undefined;
  let apiKey: string | undefined;
  let baseUrlFrom: string | undefined;

  try {
    if (!command && name !== undefined) {
      throw new UsageError(`Unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')}.`);
    }
    if (!command) {
      const top = parseFlags('', { ...GLOBAL_FLAGS, version: { type: 'boolean', description: '' } }, argv, false);
      if (top.bool('version')) {
        io.stdout.write(`${VERSION}\n`);
        return EXIT.OK;
      }
      if (top.bool('help')) {
        io.stdout.write(mainHelp(COMMANDS, invocation));
        return EXIT.OK;
      }
      io.stderr.write(mainHelp(COMMANDS, invocation));
      return EXIT.USAGE;
    }

    if (command.runWithArgs) {
      if (rest.includes('--help') || rest.includes('-h')) {
        io.stdout.write(command.help ? await command.help(invocation) : commandHelp(command, invocation));
        return EXIT.OK;
      }
      return await command.runWithArgs(rest, { io, invocation, targetFlags: '', client: () => {
        throw new Error(`${command.name} does not call the API`);
      } });
    }
    const globals = command.usesApi ? GLOBAL_FLAGS : { help: GLOBAL_FLAGS.help };
    const flags = parseFlags(command.name, { ...globals, ...command.flags }, rest, command.positionals);
    if (flags.bool('help')) {
      io.stdout.write(commandHelp(command, invocation));
      return EXIT.OK;
    }
    const target = command.usesApi ? targetFromFlags(flags) : {};
    apiKey = target.apiKey ?? apiKeyFromEnv(io.env);
    baseUrlFrom = baseUrlSetBy(target, io.env);
    // The address as typed, to repeat in hints (never the key).
    const baseUrl = command.usesApi ? flags.string('base-url') : undefined;
    const ctx: CommandContext = {
      io,
      invocation,
      targetFlags: baseUrl ? `--base-url ${baseUrl}` : '',
      client: () => (client ??= makeClient(target, io, command.name)),
    };
    return await command.run(flags, ctx);
  } catch (error) {
    const report = reportError(error, { invocation, command: command?.name, apiKey, baseUrlFrom, issueNames: command?.issueNames });
    if (io.env.AGENT_RUNS_LOG === 'debug' && error instanceof Error && error.stack) {
      io.stderr.write(`${error.stack}\n`);
    }
    io.stderr.write(`${report.lines.join('\n')}\n`);
    return report.exitCode;
  } finally {
    await client?.close();
  }
}
