import { z } from 'zod';
import { ListAgentSkillsQuerySchema, ListAgentSkillsResponseSchema, type ListAgentSkillsResponse } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { toolErrorResult } from './tool-error.js';

export function summarizeSkills(result: ListAgentSkillsResponse): string {
  if (result.agents.length === 0) return 'The server has no skills.';
  const lines = result.agents.flatMap((skill) =>
    skill.variants.map((v) => `- ${skill.name} (skill "${v.id}")${v.description ? `: ${v.description}` : ''}${v.error ? ` [unusable: ${v.error}]` : ''}`),
  );
  return [`${result.agents.length} skill(s):`, ...lines].join('\n');
}

const query = ListAgentSkillsQuerySchema.shape;

export function registerListSkillsTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'list_skills',
    {
      title: 'List skills',
      description:
        'Lists the skills a run can start from: reusable instructions (SKILL.md files) that become the agent’s base ' +
        'prompt. Pass a skill’s id (or owner/repo:name) as `skill` to create_run.',
      inputSchema: z.strictObject({ repo: query.repo, sort_by: query.sort_by, refresh: z.boolean().optional().describe('Look for skills again') }),
      outputSchema: ListAgentSkillsResponseSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args) => {
      try {
        const result = await ctx.client.skills.list(args);
        return { structuredContent: result, content: [{ type: 'text', text: summarizeSkills(result) }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'list_skills', doing: 'list skills' }, ctx.client);
      }
    },
  );
}
