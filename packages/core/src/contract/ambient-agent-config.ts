import { z } from 'zod';
import { multiLineText, singleLineText } from './control-characters.js';
import { MCPServersSchema } from './mcp-server-config.js';
import { RunBudgetSchema } from './run-budget.js';

const HarnessSchema = z.looseObject({
  type: z.union([z.enum(['oz', 'claude', 'gemini', 'codex']), z.string()]).optional().describe('The agent harness'),
  model_id: z.string().optional(),
  reasoning_level: z.string().optional(),
});

const MemoryStoreSchema = z.looseObject({
  uid: z.string(),
  access: z.union([z.enum(['read_write', 'read_only']), z.string()]),
  instructions: z.string(),
});

/** Configuration of a run. Every member is optional; unknown members pass through. */
export const AmbientAgentConfigSchema = z
  .looseObject({
    name: z.string().optional().describe('Label for grouping and filtering runs (set to the skill name for skill runs)'),
    model_id: singleLineText(z.string()).optional().describe('The model to use (the team default when absent)'),
    base_prompt: multiLineText(z.string()).optional().describe('A custom base prompt for the agent'),
    environment_id: singleLineText(z.string()).optional().describe('The environment to run the agent in'),
    skill_spec: z.string().optional().describe('owner/repo:skill-name or owner/repo:path/to/SKILL.md'),
    skills: z.array(z.string()).optional().describe('Further skills the agent may use'),
    mcp_servers: MCPServersSchema.optional().describe('MCP servers by name'),
    computer_use_enabled: z.boolean().optional().describe('Whether computer use is enabled (default false)'),
    computer_use_model_id: z.string().optional().describe('The model for computer use'),
    credential_strategy: z
      .union([z.enum(['CREATOR', 'EXECUTOR']), z.string()])
      .nullable()
      .optional()
      .describe('Whose credentials the run uses'),
    harness: HarnessSchema.optional().describe('The agent harness and its model'),
    harness_auth_secrets: z
      .looseObject({ claude_auth_secret_name: z.string().optional(), codex_auth_secret_name: z.string().optional() })
      .optional()
      .describe('Names of the secrets a third-party harness authenticates with'),
    inference_providers: z
      .looseObject({
        aws: z
          .looseObject({ disabled: z.boolean().optional(), region: z.string().optional(), role_arn: z.string().optional() })
          .optional(),
      })
      .optional()
      .describe('Inference provider settings'),
    memory_stores: z.array(MemoryStoreSchema).optional().describe('Memory stores the agent may read or write'),
    session_sharing: z
      .looseObject({ public_access: z.union([z.enum(['VIEWER', 'EDITOR']), z.string()]).optional() })
      .optional()
      .describe('Who may open the run’s session'),
    idle_timeout_minutes: z
      .number()
      .int()
      .min(1)
      .max(60)
      .optional()
      .describe('Minutes to keep the environment alive after the task (1..60, default 10)'),
    runner_id: z.string().optional().describe('The runner that should execute the run'),
    worker_host: z.string().optional().describe('Self-hosted worker that should execute the run'),
    budget: RunBudgetSchema.optional(),
    pull_request: z
      .enum(['draft', 'ready', 'off'], { error: 'must be draft, ready or off' })
      .optional()
      .describe('Extension: whether the server opens a pull request with the run’s changes (draft or ready) or not (off); only where the run’s environment declares pull_requests. Absent: the environment’s own mode'),
  })
  .describe('Configuration for a cloud agent run');

export type AmbientAgentConfig = z.infer<typeof AmbientAgentConfigSchema>;
