import { z } from 'zod';
import { definedOnly, visibleText } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { runIdArgument } from './run-id-argument.js';
import { tailBytes } from '../results/tail-bytes.js';
import { toolErrorResult } from './tool-error.js';

const DEFAULT_LINES = 50;
const MAX_LINES = 1000;
/**
 * The most output one result carries, in UTF-8 bytes after escaping. The result holds the
 * text in its content and in structuredContent, so a whole result stays under twice this.
 */
export const MAX_OUTPUT_BYTES = 64 * 1024;

const output = z.object({
  run_id: z.string(),
  text: z.string().describe("The last lines of the agent's output, control characters escaped"),
  lines: z.number().int().describe('How many lines `text` holds'),
  omitted_lines: z.number().int().describe('Earlier lines not included'),
  omitted_bytes: z
    .number()
    .int()
    .optional()
    .describe(`Bytes of the chosen lines left out at the start, to keep this result under ${MAX_OUTPUT_BYTES / 1024} KiB of output`),
  dropped_bytes: z.number().int().optional().describe('Output the server dropped to keep its per-run bound'),
});

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
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    },
    async ({ run_id, lines = DEFAULT_LINES }) => {
      try {
        const stored = await ctx.client.runs.output(run_id);
        const all = stored.text.split('\n');
        if (all.at(-1) === '') all.pop();
        const tail = all.slice(-lines);
        // Escaped first (an escape can be six times its byte), then bounded: one 8 MB line stays 64 KiB.
        const bounded = tailBytes(visibleText(tail.join('\n'), { multiline: true }), MAX_OUTPUT_BYTES);
        const text = bounded.text;
        const shownLines = text ? text.split('\n').length : 0;
        const structured = definedOnly({
          run_id,
          text,
          lines: shownLines,
          omitted_lines: all.length - shownLines,
          omitted_bytes: bounded.omittedBytes || undefined,
          dropped_bytes: stored.dropped?.bytes,
        });
        const cut = bounded.omittedBytes ? ` (the first ${bounded.omittedBytes} bytes of the rest were cut to keep this result small)` : '';
        const note = structured.omitted_lines || cut ? `(${structured.omitted_lines} earlier lines not shown${cut})\n` : '';
        return { structuredContent: structured, content: [{ type: 'text', text: `${note}${text || '(no output yet)'}` }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'get_run_output', doing: `read the output of run ${run_id}`, names: 'run' }, ctx.client);
      }
    },
  );
}
