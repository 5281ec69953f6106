import { childStates, treeRuns, type RunTreeNode } from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { renderRunTree } from '../render/run-tree.js';
import { runIdArgument } from './run-id-argument.js';

/** The tree as JSON: each run as the API returns it, with its children. */
const asJson = (node: RunTreeNode): unknown => ({ ...node.run, children: node.children.map(asJson) });

export const treeCommand: Command = {
  name: 'tree',
  summary: 'Show a run and the runs it started',
  usage: '<run-id> [flags]',
  description:
    'Show a run and every run it started, and theirs (child runs, by parent_run_id), as a tree with each one\'s state. ' +
    'Exits 0 whenever the run was found, whatever the states.',
  positionals: true,
  usesApi: true,
  flags: {
    json: { type: 'boolean', description: 'Print the tree as JSON: the run as the API returns it, with its children in `children`' },
  },
  examples: ['$0 tree 6f1c2a9e-…', '$0 tree 6f1c2a9e-… --json | jq \'.children[].state\''],
  async run(flags, ctx) {
    const runId = runIdArgument(flags);
    const tree = await ctx.client().runs.tree(runId);
    if (flags.bool('json')) {
      writeJson(ctx.io.stdout, asJson(tree));
      return EXIT.OK;
    }
    ctx.io.stdout.write(renderRunTree(tree, paintFor(ctx.io.stdout, ctx.io.env)));
    const states = Object.entries(childStates(tree));
    const below = treeRuns(tree).length - 1;
    if (below > 0) ctx.io.stderr.write(`${below} run(s) below it: ${states.map(([state, n]) => `${n} ${state}`).join(', ')}.\n`);
    if (tree.truncated) ctx.io.stderr.write('Only the first runs of this tree are shown: it holds more than can be listed at once.\n');
    return EXIT.OK;
  },
};
