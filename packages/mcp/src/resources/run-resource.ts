import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { ProtocolError } from '@modelcontextprotocol/server';
import { NotFoundError } from '@agent-runs/core';
import type { ServerContext } from '../context.js';
import { boundRun, onSessionPage, RESOURCE_FIELD_CHARS } from '../results/bounded-run.js';

export const RUN_URI_TEMPLATE = 'agent-run://{run_id}';
/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

export function runUri(runId: string): string {
  return `agent-run://${encodeURIComponent(runId)}`;
}

/** Each run as a JSON resource; listing it offers the most recently updated runs. */
export function registerRunResource(server: McpServer, ctx: ServerContext): void {
  const template = new ResourceTemplate(RUN_URI_TEMPLATE, {
    list: async () => {
      const page = await ctx.client.runs.list({ limit: 20 });
      return {
        resources: page.runs.map((run) => ({
          uri: runUri(run.run_id),
          name: run.title,
          description: `${run.state} · updated ${run.updated_at}`,
          mimeType: 'application/json',
        })),
      };
    },
  });
  server.registerResource(
    'run',
    template,
    {
      title: 'Cloud agent run',
      description: 'One cloud agent run as JSON (the same document as get_run returns).',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const raw = variables.run_id;
      const runId = decodeURIComponent(Array.isArray(raw) ? (raw[0] ?? '') : (raw ?? ''));
      try {
        // The full text, as long as it fits one message; past that, cut with a pointer to the session page.
        const run = boundRun(await ctx.client.runs.get(runId), RESOURCE_FIELD_CHARS, onSessionPage);
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(run, null, 2) }] };
      } catch (error) {
        if (error instanceof NotFoundError) {
          throw new ProtocolError(RESOURCE_NOT_FOUND, `No run ${runId}: read agent-run://recent or call list_runs for run ids.`);
        }
        throw error;
      }
    },
  );
}
