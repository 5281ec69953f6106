import { z } from 'zod';
import { RunItemSchema, summarizeRun } from '@agent-runs/core';
import { artifactContent } from './artifact-content.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from '../context.js';
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
        const run = await ctx.client.runs.get(run_id);
        return { structuredContent: run, content: [{ type: 'text', text: summarizeRun(run) }, ...artifactContent(run)] };
      } catch (error) {
        return toolErrorResult(error, `get run ${run_id}`);
      }
    },
  );
}
