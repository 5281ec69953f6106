import { runArtifacts } from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { renderArtifactTable } from '../render/artifact-table.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { runIdArgument } from './run-id-argument.js';

export const artifactsCommand: Command = {
  name: 'artifacts',
  summary: 'List what a run produced',
  usage: '<run-id> [flags]',
  description: 'List a run’s artifacts: pull requests, plans, files, screenshots, references. Fetch files with "download".',
  positionals: true,
  usesApi: true,
  flags: {
    json: { type: 'boolean', description: 'Print the artifacts as the API returns them, as JSON' },
  },
  examples: ['$0 artifacts 6f1c2a9e-…', '$0 artifacts 6f1c2a9e-… --json | jq -r \'.[] | select(.artifact_type=="PULL_REQUEST") | .data.url\''],
  async run(flags, ctx) {
    const run = await ctx.client().runs.get(runIdArgument(flags));
    const artifacts = runArtifacts(run);
    if (flags.bool('json')) writeJson(ctx.io.stdout, artifacts);
    else if (artifacts.length === 0) ctx.io.stderr.write(`Run ${run.run_id} has no artifacts (yet).\n`);
    else ctx.io.stdout.write(renderArtifactTable(artifacts, paintFor(ctx.io.stdout, ctx.io.env)));
    return EXIT.OK;
  },
};
