import { z } from 'zod';
import { definedOnly, visibleText } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from '../context.js';
import { runIdArgument } from './run-id-argument.js';
import { toolErrorResult } from './tool-error.js';

const DEFAULT_LINES = 50;
const MAX_LINES = 1000;

const output = {
  run_id: z.string(),
  text: z.string().describe("The last lines of the agent's output, control characters escaped"),
  lines: z.number().int().describe('How many lines `text` holds'),
  omitted_lines: z.number().int().describe('Earlier lines not included'),
  dropped_bytes: z.number().int().optional().describe('Output the server dropped to keep its per-run bound'),
};

export function registerGetRunOutputTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'get_run_output',
    {
      title: "Read a cloud agent run's output",
      description:
        "Returns the last lines the agent printed (stdout and stderr in order) for a run, finished or not: what it " +
        'is doing now, or why it failed. Servers that keep output (the local server) support it; others answer that ' +
        'they do not.',
      inputSchema: z.strictObject({
        run_id: runIdArgument,
        lines: z.number().int().min(1).max(MAX_LINES).optional().describe(`How many of the last lines (default ${DEFAULT_LINES}, at most ${MAX_LINES})`),
      }),
      outputSchema: output,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ run_id, lines = DEFAULT_LINES }) => {
      try {
        const stored = await ctx.client.runs.output(run_id);
        const all = stored.text.split('\n');
        if (all.at(-1) === '') all.pop();
        const tail = all.slice(-lines);
        const text = visibleText(tail.join('\n'), { multiline: true });
        const structured = definedOnly({
          run_id,
          text,
          lines: tail.length,
          omitted_lines: all.length - tail.length,
          dropped_bytes: stored.dropped?.bytes,
        });
        const note = structured.omitted_lines ? `(${structured.omitted_lines} earlier lines not shown)\n` : '';
        return { structuredContent: structured, content: [{ type: 'text', text: `${note}${text || '(no output yet)'}` }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'get_run_output', doing: `read the output of run ${run_id}`, names: 'run' }, ctx.client);
      }
    },
  );
}
