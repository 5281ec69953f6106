import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { writeJson } from '../render/json-output.js';
import { runIdArgument } from './run-id-argument.js';

export const cancelCommand: Command = {
  name: 'cancel',
  summary: 'Cancel a queued or running run',
  usage: '<run-id> [flags]',
  description: 'Cancel a queued or running run. A run that has already ended cannot be cancelled (exit 4).',
  positionals: true,
  usesApi: true,
  flags: {
    json: { type: 'boolean', description: 'Print {"run_id": …, "cancelled": true} as JSON' },
  },
  examples: ['$0 cancel 6f1c2a9e-…'],
  async run(flags, ctx) {
    const runId = runIdArgument(flags);
    const cancelled = await ctx.client().runs.cancel(runId);
    if (flags.bool('json')) writeJson(ctx.io.stdout, { run_id: cancelled, cancelled: true });
    else ctx.io.stdout.write(`Cancelled run ${cancelled}.\n`);
    return EXIT.OK;
  },
};
