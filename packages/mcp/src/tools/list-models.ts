import { z } from 'zod';
import { ListModelsResponseSchema, type ListModelsResponse } from '@agent-runs/core';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { toolErrorResult } from './tool-error.js';

export function summarizeModels(result: ListModelsResponse): string {
  if (result.models.length === 0) return 'The server lists no models; runs use its default.';
  const lines = result.models.map((m) => {
    const notes = [m.provider, m.vision_supported ? 'images' : undefined, m.reasoning_level ? `effort ${m.reasoning_level}` : undefined].filter(Boolean).join(', ');
    const usable = m.disable_reason ? ` — not usable: ${m.disable_reason}` : '';
    return `- ${m.display_name} (id ${m.id}${m.id === result.default_model_id ? ', default' : ''})${notes ? ` [${notes}]` : ''}${usable}`;
  });
  return [`${result.models.length} model(s):`, ...lines].join('\n');
}

export function registerListModelsTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'list_models',
    {
      title: 'List models',
      description:
        'Lists the models runs can use: each with its id, provider, whether it takes images, and why it cannot be used now ' +
        'when that is so (its harness is not installed or has no key). Pass an id as `model` to create_run.',
      inputSchema: z.strictObject({}),
      outputSchema: ListModelsResponseSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async () => {
      try {
        const result = await ctx.client.models.list();
        return { structuredContent: result, content: [{ type: 'text', text: summarizeModels(result) }] };
      } catch (error) {
        return toolErrorResult(error, { tool: 'list_models', doing: 'list models' }, ctx.client);
      }
    },
  );
}
