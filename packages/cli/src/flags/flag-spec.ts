/** One flag of a command: how parseArgs reads it and how `--help` shows it. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  /** May be given more than once (collected in order). */
  multiple?: boolean;
  short?: string;
  /** The value's placeholder in help, e.g. `<duration>`. */
  value?: string;
  description: string;
}

export type FlagSpecs = Record<string, FlagSpec>;

/** Flags every command accepts, before or after the command name. */
export const GLOBAL_FLAGS = {
  'base-url': {
    type: 'string',
    value: '<url>',
    description: 'API base address ending in /api/v1 (default: AGENT_RUNS_BASE_URL, else https://app.warp.dev/api/v1)',
  },
  'api-key': {
    type: 'string',
    value: '<key>',
    description: 'API key (default: AGENT_RUNS_API_KEY, else WARP_API_KEY); prefer the variable, flags show in ps',
  },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} satisfies FlagSpecs;
