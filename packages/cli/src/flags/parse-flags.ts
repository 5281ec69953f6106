import { parseArgs } from 'node:util';
import { definedOnly } from '@agent-runs/core';
import { UsageError } from '../usage-error.js';
import type { FlagSpecs } from './flag-spec.js';
import { ParsedFlags } from './parsed-flags.js';

function quoted(message: string): string | undefined {
  return /'(-[^' ]+)/.exec(message)?.[1];
}

/** parseArgs' messages, rewritten to name the flag and what to do. */
function usageErrorFrom(error: unknown, command: string, specs: FlagSpecs): UsageError {
  const { code, message } = error as { code?: string; message: string };
  const flag = quoted(message);
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      return new UsageError(`Unknown flag ${flag ?? message}${command ? ` for "${command}"` : ''}.`, command);
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = flag?.replace(/^-+/, '').split(/[ =,]/)[0] ?? '';
      const long = Object.entries(specs).find(([n, s]) => n === name || s.short === name)?.[0] ?? name;
      const spec = specs[long];
      if (spec?.type === 'boolean') {
        return new UsageError(`--${long} is a switch and takes no value.`, command);
      }
      return new UsageError(
        `--${long} needs a value${spec?.value ? ` ${spec.value}` : ''}` +
          ' (to pass a value that starts with "-", write --' + long + '=<value>).',
        command,
      );
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`Unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? ''}.`.replace(' .', '.'), command);
    default:
      return new UsageError(message, command);
  }
}

/** Reads argv against the specs; any mistake becomes a UsageError naming the flag. */
export function parseFlags(command: string, specs: FlagSpecs, argv: string[], allowPositionals: boolean): ParsedFlags {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [name, spec] of Object.entries(specs)) {
    // parseArgs checks a member that is there, even an undefined one.
    options[name] = definedOnly({ type: spec.type, multiple: spec.multiple || undefined, short: spec.short || undefined });
  }
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals, strict: true });
    return new ParsedFlags(command, values as never, positionals);
  } catch (error) {
    throw usageErrorFrom(error, command, specs);
  }
}
