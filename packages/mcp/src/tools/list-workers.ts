import { z } from 'zod';
import { ConnectedWorkersResponseSchema, visibleText, type ConnectedWorkersResponse } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { toolErrorResult } from './tool-error.js';

export const LIST_WORKERS = 'list_workers';

export function summarizeWorkers(result: ConnectedWorkersResponse): string {
  if (result.workers.length === 0) {
    return 'No self-hosted worker is connected; runs that name a worker_host wait until one connects under that id.';
  }
  // Ids and versions come from the workers: shown as visible text, never as control characters.
  const lines = result.workers.map((w) =>
    visibleText(
      `- ${w.worker_host} (instance ${w.instance_id}, version ${w.version}): ${w.running_runs}/${w.capacity} runs, ` +
        `last heard from ${w.last_heartbeat_at}${w.draining ? ', draining (takes no new run)' : ''}`,
    ),
  );
  return [`${result.workers.length} worker process(es) connected:`, ...lines].join('\n');
}

export function registerListWorkersTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    LIST_WORKERS,
    {
      title: 'List connected workers',
      description:
        'Lists the self-hosted worker processes connected to the server: each with its worker_host (the id a run names ' +
        'to run there), instance, version, the runs it executes out of its capacity, the harnesses and environments it ' +
        'serves, when it was last heard from and whether it is draining. Pass a worker_host as `worker_host` to create_run.',
      inputSchema: z.strictObject({}),
      outputSchema: ConnectedWorkersResponseSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async () => {
      try {
        const result = await ctx.client.workers.list();
        return { structuredContent: result, content: [{ type: 'text', text: summarizeWorkers(result) }] };
      } catch (error) {
        return toolErrorResult(error, { tool: LIST_WORKERS, doing: 'list the connected workers' }, ctx.client);
      }
    },
  );
}
