import { z } from 'zod';
import { PageInfoSchema } from './list-runs.js';
import { pageQueryShape } from './page-query.js';
import { MCPServersSchema } from './mcp-server-config.js';
import { RunBudgetSchema } from './run-budget.js';

export const AGENT_TYPES = ['FOREMAN', 'TRIAGE', 'SPEC', 'IMPLEMENT', 'REVIEW', 'VERIFY', 'CUSTOM'] as const;
const ACCESS = ['read_write', 'read_only'] as const;

const harness = z.looseObject({
  type: z.string().optional(),
  model_id: z.string().optional(),
  reasoning_level: z.string().optional(),
});
const harnessAuthSecrets = z.looseObject({
  claude_auth_secret_name: z.string().optional(),
  codex_auth_secret_name: z.string().optional(),
});
const inferenceProviders = z.looseObject({
  aws: z.looseObject({ disabled: z.boolean().optional(), region: z.string().optional(), role_arn: z.string().optional() }).optional(),
});
const attachedStore = z.looseObject({
  uid: z.string(),
  access: z.enum(ACCESS, { error: `must be one of ${ACCESS.join(', ')}` }),
  instructions: z.string(),
});
const secret = z.looseObject({ name: z.string().min(1) });

// Members both create and update take; update also takes null to clear one.
const identityFields = {
  description: z.string().nullable().optional(),
  prompt: z.string().nullable().optional().describe('Standing instructions: the base prompt of the runs it starts'),
  skills: z.array(z.string().min(1)).optional().describe('Skill specs whose text joins the base prompt'),
  mcp_servers: MCPServersSchema.optional().describe('MCP servers its runs get, by name'),
  environment_id: z.string().min(1).nullable().optional().describe('The environment its runs execute in'),
  base_model: z.string().nullable().optional().describe('Default model_id of its runs'),
  base_harness: z.string().nullable().optional(),
  worker_host: z.string().nullable().optional(),
  agent_type: z.enum(AGENT_TYPES, { error: `must be one of ${AGENT_TYPES.join(', ')}` }).nullable().optional(),
  credential_strategy: z.enum(['CREATOR', 'EXECUTOR'], { error: 'must be CREATOR or EXECUTOR' }).nullable().optional(),
  default_runner_uid: z.string().nullable().optional(),
  on_behalf_of_enabled: z.boolean().nullable().optional(),
  harness: harness.nullable().optional(),
  budget: RunBudgetSchema.nullable().optional().describe('Extension: the default caps of its runs (agent_config.budget); a run’s own replace them'),
  harness_auth_secrets: harnessAuthSecrets.nullable().optional(),
  inference_providers: inferenceProviders.nullable().optional(),
  secrets: z.array(secret).nullable().optional(),
  memory: z
    .looseObject({
      attached_stores: z.array(attachedStore).nullable().optional(),
      auto_memory: z.looseObject({ enabled: z.boolean().optional() }).optional(),
    })
    .nullable()
    .optional(),
};

/** The body of `POST /agent/identities`. */
export const CreateAgentIdentityRequestSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'must be a non-empty string'),
    factory_uid: z.string().nullable().optional(),
    ...identityFields,
  })
  .describe('A named agent: a prompt, skills, MCP servers and an environment under one name');

export type CreateAgentIdentityRequest = z.input<typeof CreateAgentIdentityRequestSchema>;

/** The body of `PUT /agent/identities/{uid}`: members given replace, null clears. */
export const UpdateAgentIdentityRequestSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'must be a non-empty string').optional(),
    ...identityFields,
    skills: identityFields.skills.unwrap().nullable().optional(),
  })
  .describe('Changes to a named agent');

export type UpdateAgentIdentityRequest = z.input<typeof UpdateAgentIdentityRequestSchema>;

/** One named agent, as the server answers. Parsed leniently. */
export const AgentIdentitySchema = z
  .looseObject({
    uid: z.string().describe('Pass as agent_identity_uid'),
    name: z.string(),
    available: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    default_runner_uid: z.string(),
    skills: z.array(z.string()),
    secrets: z.array(secret),
    memory: z.looseObject({
      attached_stores: z.array(attachedStore),
      auto_memory: z.looseObject({ enabled: z.boolean() }),
    }),
    description: z.string().nullable().optional(),
    prompt: z.string().nullable().optional(),
    environment_id: z.string().optional(),
    mcp_servers: z.record(z.string(), z.looseObject({})).optional(),
    base_model: z.string().optional(),
    base_harness: z.string().optional(),
    worker_host: z.string().optional(),
    agent_type: z.string().nullable().optional(),
    credential_strategy: z.string().optional(),
    factory_uid: z.string().nullable().optional(),
    on_behalf_of_enabled: z.boolean().optional(),
    harness: harness.optional(),
    harness_auth_secrets: harnessAuthSecrets.optional(),
    inference_providers: inferenceProviders.optional(),
  })
  .describe('A named agent');

export type AgentIdentity = z.infer<typeof AgentIdentitySchema>;

export const ListAgentIdentitiesResponseSchema = z.looseObject({ agents: z.array(AgentIdentitySchema), page_info: PageInfoSchema.optional() });
export type ListAgentIdentitiesResponse = z.infer<typeof ListAgentIdentitiesResponseSchema>;

/** The query of `GET /agent/identities`. */
export const ListAgentIdentitiesQuerySchema = z.strictObject({
  factory_uid: z.string().optional(),
  ...pageQueryShape,
});

export type ListAgentIdentitiesQuery = z.input<typeof ListAgentIdentitiesQuerySchema>;
