import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { renderTable } from '../render/aligned-table.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { UsageError } from '../usage-error.js';
import { noArguments } from './no-arguments.js';

export const skillsCommand: Command = {
  name: 'skills',
  summary: 'List the skills runs can start from',
  usage: '[flags]',
  description: 'List the skills (SKILL.md files) the server knows; pass one’s id or name to run --skill.',
  positionals: true,
  usesApi: true,
  flags: {
    repo: { type: 'string', value: '<owner/name>', description: 'Only skills from this repository' },
    'sort-by': { type: 'string', value: '<name|last_run>', description: 'Order (default name)' },
    refresh: { type: 'boolean', description: 'Look for skills again instead of the server’s cached list' },
    json: { type: 'boolean', description: 'Print {"agents": [...]} as JSON' },
  },
  examples: ['$0 skills', '$0 skills --repo acme/tools --sort-by last_run'],
  async run(flags, ctx) {
    noArguments(flags);
    const sortBy = flags.nonEmpty('sort-by');
    if (sortBy !== undefined && sortBy !== 'name' && sortBy !== 'last_run') {
      throw new UsageError(`--sort-by must be name or last_run, got "${sortBy}".`, 'skills');
    }
    const repo = flags.nonEmpty('repo');
    const result = await ctx.client().skills.list({
      repo,
      sort_by: sortBy,
      refresh: flags.bool('refresh') || undefined,
    });
    if (flags.bool('json')) writeJson(ctx.io.stdout, result);
    else if (result.agents.length === 0) ctx.io.stdout.write('No skills.\n');
    else {
      const rows = result.agents.flatMap((skill) => skill.variants.map((v) => [skill.name, v.id, v.description || '-']));
      ctx.io.stdout.write(renderTable(['SKILL', 'SPEC', 'DESCRIPTION'], rows, paintFor(ctx.io.stdout, ctx.io.env)));
    }
    return EXIT.OK;
  },
};
