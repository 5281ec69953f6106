import type { FlagSpecs } from '../flags/flag-spec.js';

/** The flags of every command that follows a run to its end. */
export const WAIT_FLAGS = {
  timeout: {
    type: 'string',
    value: '<duration>',
    description: 'Stop waiting after this long (90s, 45m, 1h30m; default 1h); exit 3, the run goes on',
  },
  'poll-interval': {
    type: 'string',
    value: '<duration>',
    description: 'First delay between checks (default 1s); it grows to 10s while nothing changes',
  },
  json: { type: 'boolean', description: 'Print the final run as JSON on stdout, nothing else' },
  quiet: { type: 'boolean', description: "Do not show the agent's output while waiting" },
} satisfies FlagSpecs;
