import { z } from 'zod';
import { RunItemSchema, summarizeRun } from '@agent-runs/core';
import { artifactContent } from './artifact-content.js';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { boundRun, inRunResource, TOOL_FIELD_CHARS } from '../results/bounded-run.js';
import { runIdArgument } from './run-id-argument.js';
import { toolErrorResult } from './tool-error.js';

export function registerGetRunTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'get_run',
    {
      title: 'Get a cloud agent run',
      description:
        'Fetches one run in full, once, without waiting: state, title, prompt, status message (why it failed or is ' +
        'blocked), session link, timestamps, usage, and its artifacts (pull requests, plans, files, screenshots; plans, ' +
        'files and screenshots as agent-run:// resource links to read). Use it to check on a run; use wait_for_run ' +
        'instead to block until the run finishes.',
      inputSchema: z.strictObject({ run_id: runIdArgument }),
      outputSchema: RunItemSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ run_id }) => {
      try {
        // The prompt once, in the structured run, cut past TOOL_FIELD_CHARS; the text summary leaves it out.
        const run = boundRun(await ctx.client.runs.get(run_id), TOOL_FIELD_CHARS, inRunResource);
        return { structuredContent: run, content: [{ type: 'text', text: summarizeRun(run) }, ...artifactContent(run)] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'get_run', doing: `get run ${run_id}`, names: 'run' }, ctx.client);
      }
    },
  );
}
