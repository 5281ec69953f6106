import type { Command } from './command.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import { GLOBAL_FLAGS, type FlagSpecs } from './flags/flag-spec.js';

function flagLines(specs: FlagSpecs): string[] {
  const labels = Object.entries(specs).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : '    ';
    return [`${short}--${name}${spec.value ? ` ${spec.value}` : ''}`, spec.description] as const;
  });
  const width = Math.max(...labels.map(([label]) => label.length));
  return labels.map(([label, text]) => `  ${label.padEnd(width)}  ${text}`);
}

/** `agent-runs <command> --help`. */
export function commandHelp(command: Command, invocation: string): string {
  const global: FlagSpecs = command.usesApi ? GLOBAL_FLAGS : { help: GLOBAL_FLAGS.help };
  return [
    `Usage: ${invocation} ${command.name} ${command.usage}`,
    '',
    command.description ?? command.summary,
    '',
    'Flags:',
    ...flagLines(command.flags),
    '',
    command.usesApi ? 'Global flags:' : 'Other flags:',
    ...flagLines(global),
    '',
    'Examples:',
    ...command.examples.map((example) => `  ${example.replaceAll('$0', invocation)}`),
    '',
    EXIT_CODES_HELP,
    '',
  ].join('\n');
}

/** `agent-runs --help`. */
export function mainHelp(commands: readonly Command[], invocation: string): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `Usage: ${invocation} <command> [flags]`,
    '',
    'Start, follow, list and cancel cloud agent runs, or serve the Agent Runs API locally.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Global flags:',
    ...flagLines({ ...GLOBAL_FLAGS, version: { type: 'boolean', description: 'Print the version' } }),
    '',
    'Environment:',
    '  AGENT_RUNS_API_KEY   API key (WARP_API_KEY is read too)',
    '  AGENT_RUNS_BASE_URL  API base address (OZ_API_BASE_URL is read too)',
    '  NO_COLOR             plain output without colours',
    '',
    'Examples:',
    `  ${invocation} quickstart`,
    `  ${invocation} run "Fix the flaky test in ci.yml" --wait`,
    `  ${invocation} list --state FAILED --state ERROR`,
    `  ${invocation} serve --port 8080`,
    '',
    `Run "${invocation} <command> --help" for a command's flags.`,
    '',
    EXIT_CODES_HELP,
    '',
  ].join('\n');
}
