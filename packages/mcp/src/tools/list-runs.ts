import { z } from 'zod';
import {
  KNOWN_RUN_STATES,
  KnownRunStateSchema,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  ListRunsQuerySchema,
  ListRunsResponseSchema,
  type ListRunsQuery,
  type ListRunsResponse,
  visibleText,
} from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { boundRuns, inRunResource, LIST_FIELD_CHARS } from '../results/bounded-run.js';
import { toolErrorResult } from './tool-error.js';

const query = ListRunsQuerySchema.shape;
/** A title in the one-line-per-run summary. */
const SUMMARY_TITLE_CHARS = 120;

const LIMIT_HINT = `limit must be an integer from 1 to ${LIST_LIMIT_MAX}`;

/** Tool arguments: the list query's fields, with `limit` and `state` in plain JSON-friendly shapes. */
export const listRunsInput = {
  limit: z
    .number({ error: LIMIT_HINT })
    .int(LIMIT_HINT)
    .min(1, LIMIT_HINT)
    .max(LIST_LIMIT_MAX, LIMIT_HINT)
    .optional()
    .describe(`How many runs to return, 1..${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT})`),
  cursor: query.cursor,
  state: z
    .union([KnownRunStateSchema, z.array(KnownRunStateSchema).min(1)], {
      error: `state must be one of ${KNOWN_RUN_STATES.join(', ')}, or an array of them`,
    })
    .optional()
    .describe('Only runs in this state, or in any of these states (e.g. ["FAILED", "ERROR"])'),
  q: query.q,
  name: query.name,
  model_id: query.model_id,
  creator: query.creator,
  source: query.source,
  environment_id: query.environment_id,
  skill_spec: query.skill_spec,
  schedule_id: query.schedule_id,
  created_after: query.created_after,
  created_before: query.created_before,
  updated_after: query.updated_after,
  sort_by: query.sort_by,
  sort_order: query.sort_order,
};

/** One line per run, newest first, and how to get the next page. */
export function summarizeRunList(page: ListRunsResponse): string {
  if (page.runs.length === 0) return 'No runs match.';
  const lines = page.runs.map((run) => {
    const title = run.title.length > SUMMARY_TITLE_CHARS ? `${run.title.slice(0, SUMMARY_TITLE_CHARS)}…` : run.title;
    // One line per run: the title's line breaks and control characters are shown escaped.
    return `- ${visibleText(`${run.run_id}  ${run.state}  ${title}  (updated ${run.updated_at})`)}`;
  });
  const more = page.page_info.has_next_page && page.page_info.next_cursor
    ? [`More runs: call list_runs again with cursor "${page.page_info.next_cursor}".`]
    : [];
  return [`${page.runs.length} run(s):`, ...lines, ...more].join('\n');
}

export function registerListRunsTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'list_runs',
    {
      title: 'List cloud agent runs',
      description:
        'Lists cloud agent runs, most recently updated first, with filters: state (e.g. FAILED), q (text in title, ' +
        'prompt or skill), name, model_id, source, time bounds. Use it to find a run_id, to see what is running, or ' +
        'to review recent failures. Returns up to `limit` runs and, when there are more, a next_cursor to pass back ' +
        'as `cursor`.',
      inputSchema: z.strictObject(listRunsInput),
      outputSchema: ListRunsResponseSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args) => {
      try {
        const page = await ctx.client.runs.list(args as ListRunsQuery);
        const result: ListRunsResponse = { ...page.body, runs: boundRuns(page.body.runs, LIST_FIELD_CHARS, inRunResource) };
        return { structuredContent: result, content: [{ type: 'text', text: summarizeRunList(result) }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'list_runs', doing: 'list runs' }, ctx.client);
      }
    },
  );
}
