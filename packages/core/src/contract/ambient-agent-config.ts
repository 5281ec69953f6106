import { z } from 'zod';
import { multiLineText, singleLineText } from './control-characters.js';
import { MCPServersSchema } from './mcp-server-config.js';

/** Configuration of a run. Every member is optional; unknown members pass through. */
export const AmbientAgentConfigSchema = z
  .looseObject({
    name: z.string().optional().describe('Label for grouping and filtering runs (set to the skill name for skill runs)'),
    model_id: singleLineText(z.string()).optional().describe('The model to use (the team default when absent)'),
    base_prompt: multiLineText(z.string()).optional().describe('A custom base prompt for the agent'),
    environment_id: singleLineText(z.string()).optional().describe('The environment to run the agent in'),
    skill_spec: z.string().optional().describe('owner/repo:skill-name or owner/repo:path/to/SKILL.md'),
    mcp_servers: MCPServersSchema.optional().describe('MCP servers by name'),
    computer_use_enabled: z.boolean().optional().describe('Whether computer use is enabled (default false)'),
    idle_timeout_minutes: z
      .number()
      .int()
      .min(1)
      .max(60)
      .optional()
      .describe('Minutes to keep the environment alive after the task (1..60, default 10)'),
    worker_host: z.string().optional().describe('Self-hosted worker that should execute the run'),
  })
  .describe('Configuration for a cloud agent run');

export type AmbientAgentConfig = z.infer<typeof AmbientAgentConfigSchema>;
