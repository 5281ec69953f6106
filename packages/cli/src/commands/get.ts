import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { renderRunDetails } from '../render/run-details.js';
import { runIdArgument } from './run-id-argument.js';

export const getCommand: Command = {
  name: 'get',
  summary: 'Show one run',
  usage: '<run-id> [flags]',
  description: 'Show one run in full. Exits 0 whenever the run was found, whatever its state.',
  positionals: true,
  usesApi: true,
  flags: {
    json: { type: 'boolean', description: 'Print the run as the API returns it, as JSON' },
  },
  examples: ['$0 get 6f1c2a9e-…', '$0 get 6f1c2a9e-… --json | jq -r .session_link'],
  async run(flags, ctx) {
    const runId = runIdArgument(flags);
    const run = await ctx.client().runs.get(runId);
    if (flags.bool('json')) writeJson(ctx.io.stdout, run);
    else ctx.io.stdout.write(renderRunDetails(run, paintFor(ctx.io.stdout, ctx.io.env)));
    return EXIT.OK;
  },
};
