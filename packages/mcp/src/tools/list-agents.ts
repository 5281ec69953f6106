import { z } from 'zod';
import { ListAgentIdentitiesResponseSchema, type ListAgentIdentitiesResponse } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { toolErrorResult } from './tool-error.js';

export function summarizeAgents(result: ListAgentIdentitiesResponse): string {
  if (result.agents.length === 0) return 'The server has no named agents.';
  const lines = result.agents.map((a) => {
    const parts = [a.environment_id ? `environment ${a.environment_id}` : '', a.skills.length ? `skills ${a.skills.join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
    return `- ${a.name} (id ${a.uid})${a.description ? `: ${a.description}` : ''}${parts ? ` [${parts}]` : ''}`;
  });
  return [`${result.agents.length} named agent(s):`, ...lines].join('\n');
}

export function registerListAgentsTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'list_agents',
    {
      title: 'List named agents',
      description:
        'Lists the named agents: saved bundles of instructions, skills, MCP servers and an environment. Pass a named ' +
        'agent’s name or id as `agent` to create_run to start a run with its defaults.',
      inputSchema: z.strictObject({}),
      outputSchema: ListAgentIdentitiesResponseSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async () => {
      try {
        const result = await ctx.client.agents.list();
        return { structuredContent: result, content: [{ type: 'text', text: summarizeAgents(result) }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'list_agents', doing: 'list named agents' }, ctx.client);
      }
    },
  );
}
