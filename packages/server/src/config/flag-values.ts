import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readDuration } from '@agent-runs/core/contract';
import { ServerConfigError } from '../domain/server-config-error.js';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;
type StrictFlags<O extends FlagOptions> = { args: string[]; strict: true; allowPositionals: false; options: O };
/** The values of flags declared by `O`, as node:util's parseArgs types them. */
export type FlagValues<O extends FlagOptions> = ReturnType<typeof parseArgs<StrictFlags<O>>>['values'];

/** argv's flags (no positionals, none unknown); a mistake is a ServerConfigError pointing at --help. */
export function parseFlags<const O extends FlagOptions>(argv: string[], options: O): FlagValues<O> {
  try {
    return parseArgs<StrictFlags<O>>({ args: argv, strict: true, allowPositionals: false, options }).values;
  } catch (error) {
    throw new ServerConfigError(`${(error as Error).message} (see --help)`);
  }
}

/** A whole number from a flag or its variable; undefined when not given. */
export function integerFrom(name: string, text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d+$/.test(text.trim())) throw new ServerConfigError(`${name} must be a whole number, got "${text}".`);
  return Number(text);
}

/** A duration (`45m`, `1500ms`) from a flag or its variable, in ms; undefined when not given. */
export function durationFrom(name: string, text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  // Core's parser holds the one bound every adapter shares (Node's timer limit).
  const { ms, problem } = readDuration(text);
  if (problem !== undefined) throw new ServerConfigError(`${name} ${problem}.`);
  return ms;
}

/** A variable's comma-separated list; undefined when it holds none. */
export const listFrom = (text: string | undefined): string[] | undefined => {
  const items = (text ?? '').split(',').map((item) => item.trim()).filter(Boolean);
  return items.length ? items : undefined;
};

export const truthy = (text: string | undefined): boolean => text !== undefined && /^(1|true|yes|on)$/i.test(text.trim());

/** [flag, description, environment variable] rows as `--help` prints them. */
export type HelpRow = [string, string, string];

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** The flags, their descriptions wrapped, and their variables in a column. */
export function helpTable(rows: readonly HelpRow[]): string {
  const flagWidth = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return rows
    .map(([flag, description, variable]) => {
      const lines = wrap(description, 48);
      return lines
        .map((text, i) => `  ${(i === 0 ? flag : '').padEnd(flagWidth)}${i === 0 && variable ? text.padEnd(50) + variable : text}`.trimEnd())
        .join('\n');
    })
    .join('\n');
}
