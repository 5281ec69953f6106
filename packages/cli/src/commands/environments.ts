import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { renderTable } from '../render/aligned-table.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { noArguments } from './no-arguments.js';

export const environmentsCommand: Command = {
  name: 'environments',
  summary: 'List the environments runs can execute in',
  usage: '[flags]',
  description: 'List the environments runs can execute in; pass one’s name or id to run --environment.',
  positionals: true,
  usesApi: true,
  flags: { json: { type: 'boolean', description: 'Print {"environments": [...]} as JSON' } },
  examples: ['$0 environments', '$0 environments --json | jq -r ".environments[].uid"'],
  async run(flags, ctx) {
    noArguments(flags);
    const result = await ctx.client().environments.list();
    if (flags.bool('json')) writeJson(ctx.io.stdout, result);
    else if (result.environments.length === 0) ctx.io.stdout.write('No environments.\n');
    else {
      const rows = result.environments.map((e) => [
        e.uid,
        e.config.name ?? e.uid,
        (e.config.github_repos ?? []).map((r) => `${r.owner}/${r.repo}`).join(', ') || '-',
        e.last_task_run_timestamp ?? '-',
      ]);
      ctx.io.stdout.write(renderTable(['ENVIRONMENT ID', 'NAME', 'REPOSITORIES', 'LAST RUN'], rows, paintFor(ctx.io.stdout, ctx.io.env)));
    }
    return EXIT.OK;
  },
};
