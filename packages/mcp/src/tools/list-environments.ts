import { z } from 'zod';
import { ListEnvironmentsResponseSchema, ListEnvironmentsQuerySchema, type ListEnvironmentsResponse } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { toolErrorResult } from './tool-error.js';

export function summarizeEnvironments(result: ListEnvironmentsResponse): string {
  if (result.environments.length === 0) return 'The server has no environments; runs execute without one.';
  const lines = result.environments.map((e) => {
    const repos = (e.config.github_repos ?? []).map((r) => `${r.owner}/${r.repo}`).join(', ');
    return `- ${e.config.name ?? e.uid} (id ${e.uid})${e.config.description ? `: ${e.config.description}` : ''}${repos ? ` [repos: ${repos}]` : ''}`;
  });
  return [`${result.environments.length} environment(s):`, ...lines].join('\n');
}

export function registerListEnvironmentsTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'list_environments',
    {
      title: 'List environments',
      description:
        'Lists the environments a run can execute in: each with its id, name, description, the repositories it checks ' +
        'out and its setup commands. Pass an environment’s name or id as `environment` to create_run.',
      inputSchema: z.strictObject({ sort_by: ListEnvironmentsQuerySchema.shape.sort_by }),
      outputSchema: ListEnvironmentsResponseSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args) => {
      try {
        const result = await ctx.client.environments.list(args);
        return { structuredContent: result, content: [{ type: 'text', text: summarizeEnvironments(result) }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'list_environments', doing: 'list environments' }, ctx.client);
      }
    },
  );
}
