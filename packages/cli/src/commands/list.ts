import {
  KNOWN_RUN_SOURCE_TYPES,
  KNOWN_RUN_STATES,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  withIssueNames,
  type RunItem,
  type RunsPage,
} from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { LIST_FLAG_NAMES, listQueryFromFlags } from '../input/list-query-from-flags.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { renderRunTable } from '../render/run-table.js';

const TIME_HINT = 'an RFC 3339 time (2026-01-31T09:00:00Z) or a duration ago (2h, 7d)';

export const listCommand: Command = {
  name: 'list',
  summary: 'List runs, newest first, with filters',
  usage: '[flags]',
  description:
    `List runs as a table (or --json). One page of --limit runs (default ${LIST_LIMIT_DEFAULT}), most recently updated first; ` +
    '--all follows every page, newest created first (unless --sort-by is given), so that a run changing state meanwhile is neither missed nor listed twice.',
  positionals: false,
  usesApi: true,
  flags: {
    state: {
      type: 'string',
      multiple: true,
      value: '<state>',
      description: `Only runs in this state; repeat or comma-separate for any of several (${KNOWN_RUN_STATES.join(', ')})`,
    },
    name: { type: 'string', value: '<name>', description: 'Only runs with this config name' },
    model: { type: 'string', value: '<model-id>', description: 'Only runs on this model' },
    creator: { type: 'string', value: '<uid>', description: 'Only runs created by this user id' },
    source: { type: 'string', value: '<source>', description: `Only runs from this source (${KNOWN_RUN_SOURCE_TYPES.join(', ')})` },
    environment: { type: 'string', value: '<id>', description: 'Only runs in this environment' },
    skill: { type: 'string', value: '<spec>', description: 'Only runs of this skill spec' },
    'created-after': { type: 'string', value: '<time>', description: `Created after ${TIME_HINT}` },
    'created-before': { type: 'string', value: '<time>', description: `Created before ${TIME_HINT}` },
    'updated-after': { type: 'string', value: '<time>', description: `Updated after ${TIME_HINT}` },
    search: { type: 'string', short: 'q', value: '<text>', description: 'Case-insensitive search in title, prompt and skill' },
    q: { type: 'string', value: '<text>', description: 'The same as --search' },
    'sort-by': { type: 'string', value: '<field>', description: 'updated_at (default; created_at with --all), created_at, title or agent' },
    'sort-order': { type: 'string', value: '<order>', description: 'desc (default) or asc' },
    limit: { type: 'string', short: 'n', value: '<n>', description: `Runs per page, 1-${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT})` },
    all: { type: 'boolean', short: 'a', description: 'Follow every page, not just the first' },
    json: { type: 'boolean', description: 'Print {"runs": […], "page_info": {…}} as JSON' },
  },
  examples: [
    '$0 list',
    '$0 list --state FAILED --state ERROR --created-after 24h',
    '$0 list --source CLI --search "flaky test" --sort-by created_at --sort-order asc',
    '$0 list --all --json | jq -r ".runs[].run_id"',
  ],
  async run(flags, ctx) {
    const query = listQueryFromFlags(flags);
    const { io } = ctx;
    const pages = ctx.client().runs.list(query);
    let runs: RunItem[];
    let last: RunsPage;
    try {
      if (flags.bool('all')) {
        // core walks every page by creation time (unless --sort-by says otherwise): no run is missed or shown twice.
        runs = [];
        let walked: RunsPage | undefined;
        for await (const page of pages.iterPages()) {
          runs.push(...page.runs);
          walked = page;
        }
        last = walked!;
      } else {
        last = await pages;
        runs = last.runs;
      }
    } catch (error) {
      // The client validated the query: name the flags the user typed.
      throw withIssueNames(error, LIST_FLAG_NAMES);
    }
    if (flags.bool('json')) {
      writeJson(io.stdout, { runs, page_info: last.pageInfo });
      return EXIT.OK;
    }
    if (runs.length === 0) {
      io.stderr.write('No runs match.\n');
      return EXIT.OK;
    }
    io.stdout.write(renderRunTable(runs, paintFor(io.stdout, io.env), io.stdout.isTTY ? io.stdout.columns : undefined));
    if (last.hasNextPage()) {
      io.stderr.write(`${runs.length} runs shown; there are more: pass --all, or a larger --limit.\n`);
    }
    return EXIT.OK;
  },
};
