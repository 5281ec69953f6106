import { visibleText } from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { renderTable } from '../render/aligned-table.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { noArguments } from './no-arguments.js';

export const modelsCommand: Command = {
  name: 'models',
  summary: 'List the models runs can use',
  usage: '[flags]',
  description: 'List the models runs can use, and why one is unavailable; pass an id to run --model.',
  positionals: true,
  usesApi: true,
  flags: { json: { type: 'boolean', description: 'Print {"default_model_id": …, "models": [...]} as JSON' } },
  examples: ['$0 models', '$0 models --json | jq -r ".models[] | select(.disable_reason == null) | .id"'],
  async run(flags, ctx) {
    noArguments(flags);
    const result = await ctx.client().models.list();
    if (flags.bool('json')) writeJson(ctx.io.stdout, result);
    else if (result.models.length === 0) ctx.io.stdout.write('No models.\n');
    else {
      const rows = result.models.map((m) => [
        `${m.id}${m.id === result.default_model_id ? ' (default)' : ''}`,
        m.display_name,
        m.provider,
        m.disable_reason ? `${m.disable_reason}${m.description ? `: ${m.description}` : ''}` : 'available',
      ].map((cell) => visibleText(cell)));
      ctx.io.stdout.write(renderTable(['MODEL ID', 'NAME', 'PROVIDER', 'STATUS'], rows, paintFor(ctx.io.stdout, ctx.io.env)));
    }
    return EXIT.OK;
  },
};
