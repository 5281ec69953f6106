import { z } from 'zod';

/** Where a skill's SKILL.md lives: `owner/name` and the path inside it. */
export const AgentSkillSourceSchema = z.looseObject({
  owner: z.string(),
  name: z.string(),
  skill_path: z.string(),
  worker_host: z.string().optional(),
});

export const AgentSkillVariantSchema = z.looseObject({
  id: z.string().describe('Pass as skill or config.skill_spec'),
  description: z.string(),
  base_prompt: z.string().describe('The text the agent is given as its base prompt'),
  source: AgentSkillSourceSchema,
  environments: z.array(z.looseObject({ uid: z.string(), name: z.string() })),
  error: z.string().optional().describe('Why the SKILL.md could not be read (malformed skills only)'),
  last_run_timestamp: z.string().nullable().optional(),
});

/** A skill (`GET /agent`): one name, one or more SKILL.md files that carry it. */
export const AgentSkillSchema = z
  .looseObject({
    name: z.string(),
    variants: z.array(AgentSkillVariantSchema),
  })
  .describe('A skill that can serve as a run’s base prompt');

export type AgentSkill = z.infer<typeof AgentSkillSchema>;
export type AgentSkillVariant = z.infer<typeof AgentSkillVariantSchema>;

export const ListAgentSkillsResponseSchema = z.looseObject({ agents: z.array(AgentSkillSchema) });
export type ListAgentSkillsResponse = z.infer<typeof ListAgentSkillsResponseSchema>;

export const SKILL_SORT_FIELDS = ['name', 'last_run'] as const;

// Booleans arrive as text in a query string.
const queryBoolean = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'must be true or false' }),
);

/** The query of `GET /agent`. */
export const ListAgentSkillsQuerySchema = z.strictObject({
  repo: z.string().min(1).optional().describe('Only skills from this repository (owner/name or name)'),
  sort_by: z
    .enum(SKILL_SORT_FIELDS, { error: `must be one of ${SKILL_SORT_FIELDS.join(', ')}` })
    .optional()
    .describe('Sort field (default name)'),
  refresh: queryBoolean.optional().describe('Look for SKILL.md files again instead of using the cached list'),
  include_malformed_skills: queryBoolean.optional().describe('Also list SKILL.md files that could not be read, with their error'),
});

export type ListAgentSkillsQuery = z.input<typeof ListAgentSkillsQuerySchema>;
