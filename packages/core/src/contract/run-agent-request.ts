import { z } from 'zod';
import { AmbientAgentConfigSchema } from './ambient-agent-config.js';

/** The body of `POST /agent/run`. `prompt` is required unless a skill is given. */
export const RunAgentRequestSchema = z
  .looseObject({
    prompt: z.string().optional().describe('The instruction for the agent; required unless a skill is given'),
    config: AmbientAgentConfigSchema.optional(),
    title: z.string().optional().describe('Title of the run (generated from the prompt when absent)'),
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
