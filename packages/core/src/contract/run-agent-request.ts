import { z } from 'zod';
import { AmbientAgentConfigSchema } from './ambient-agent-config.js';
import { singleLineText } from './control-characters.js';
import { PROMPT_MAX_CHARS, TITLE_MAX_CHARS } from './request-limits.js';

/** The body of `POST /agent/run`. `prompt` is required unless a skill is given. */
export const RunAgentRequestSchema = z
  .looseObject({
    prompt: z
      .string()
      .max(PROMPT_MAX_CHARS, `must be at most ${PROMPT_MAX_CHARS} characters`)
      .optional()
      .describe(`The instruction for the agent; required unless a skill is given; at most ${PROMPT_MAX_CHARS} characters`),
    config: AmbientAgentConfigSchema.optional(),
    title: singleLineText(z.string().max(TITLE_MAX_CHARS, `must be at most ${TITLE_MAX_CHARS} characters`))
      .optional()
      .describe('Title of the run (generated from the prompt when absent)'),
    skill: z
      .string()
      .min(1)
      .optional()
      .describe('repo:skill, org/repo:skill or a path to a SKILL.md; wins over config.skill_spec'),
    team: z.boolean().optional().describe('Whether to create a team-owned run'),
  })
  .superRefine((value, ctx) => {
    const hasSkill = Boolean(value.skill || value.config?.skill_spec);
    if (!hasSkill && (value.prompt === undefined || value.prompt.trim() === '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['prompt'],
        message: 'is required (a non-empty string) unless a skill is given in skill or config.skill_spec',
      });
    }
  })
  .describe('Request body for creating a run');

export type RunAgentRequest = z.infer<typeof RunAgentRequestSchema>;
