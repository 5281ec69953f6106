import { z } from 'zod';
import { AmbientAgentConfigSchema } from './ambient-agent-config.js';
import { singleLineText } from './control-characters.js';
import { PROMPT_MAX_CHARS, REQUEST_BODY_MAX_BYTES, TITLE_MAX_CHARS } from './request-limits.js';
import { RunModeSchema } from './run-mode.js';

/** Limits of a create request, checked by the client before sending and by the server. */
export const RUN_REQUEST_LIMITS = {
  metadataKeys: 20,
  metadataKeyLength: 256,
  metadataValueLength: 2048,
  attachments: 5,
  attachmentFileNameLength: 255,
  /** Decoded bytes of one attachment. */
  attachmentBytes: 5 * 1024 * 1024,
  /** Decoded bytes of all attachments together. */
  attachmentsTotalBytes: 10 * 1024 * 1024,
} as const;

/**
 * The largest create body the limits allow (all attachments, base64, plus the rest):
 * a server must accept at least this much on the create routes.
 */
export const RUN_REQUEST_MAX_BODY_BYTES = Math.ceil((RUN_REQUEST_LIMITS.attachmentsTotalBytes * 4) / 3) + REQUEST_BODY_MAX_BYTES;

// One character class, no groups: linear on a multi-megabyte string; length % 4 is checked beside it.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Bytes that a base64 text decodes to. */
export function base64DecodedBytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

const mib = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;

export const AttachmentInputSchema = z
  .strictObject({
    // A file name becomes a path on the agent's side and a line in logs: one line, no separators.
    file_name: singleLineText(z.string())
      .min(1, 'must be a non-empty file name')
      .max(RUN_REQUEST_LIMITS.attachmentFileNameLength, `must be at most ${RUN_REQUEST_LIMITS.attachmentFileNameLength} characters`)
      .refine((name) => !/[/\\\0]/.test(name) && name !== '.' && name !== '..', 'must be a bare file name, without / or \\')
      .describe('Name of the attached file'),
    mime_type: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type such as image/png')
      .describe('MIME type, e.g. image/png'),
    data: z
      .string()
      .refine((data) => data.length % 4 === 0 && BASE64.test(data), 'must be base64 (standard alphabet, padded)')
      .refine(
        (data) => base64DecodedBytes(data) <= RUN_REQUEST_LIMITS.attachmentBytes,
        `must decode to at most ${mib(RUN_REQUEST_LIMITS.attachmentBytes)}`,
      )
      .describe('The file’s content, base64-encoded'),
  })
  .describe('A file given to the agent with the prompt');

export type AttachmentInput = z.infer<typeof AttachmentInputSchema>;

export const RunMetadataSchema = z
  .record(
    singleLineText(z.string())
      .min(1, 'metadata keys must be non-empty')
      .max(RUN_REQUEST_LIMITS.metadataKeyLength, `metadata keys must be at most ${RUN_REQUEST_LIMITS.metadataKeyLength} characters`),
    z.string().max(RUN_REQUEST_LIMITS.metadataValueLength, `must be at most ${RUN_REQUEST_LIMITS.metadataValueLength} characters`),
  )
  .refine((m) => Object.keys(m).length <= RUN_REQUEST_LIMITS.metadataKeys, {
    message: `must have at most ${RUN_REQUEST_LIMITS.metadataKeys} keys`,
  })
  .describe(`String labels on the run (at most ${RUN_REQUEST_LIMITS.metadataKeys} keys); list runs by them`);

const id = (what: string) => z.string().min(1, `must be a non-empty ${what}`);

/**
 * The body of `POST /agent/runs`. `prompt` is required unless a skill (`skill`,
 * `config.skill_spec`, `config.skills`) or a conversation to continue is given, as SDK 1.4
 * has it; unknown members pass through.
 */
export const RunAgentRequestSchema = z
  .looseObject({
    prompt: z
      .string()
      .max(PROMPT_MAX_CHARS, `must be at most ${PROMPT_MAX_CHARS} characters`)
      .optional()
      .describe(
        `The instruction for the agent; required unless a skill (skill, config.skill_spec, config.skills) or a conversation_id is given; at most ${PROMPT_MAX_CHARS} characters`,
      ),
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
    metadata: RunMetadataSchema.optional(),
    mode: RunModeSchema.optional().describe('normal (default), plan or orchestrate'),
    attachments: z
      .array(AttachmentInputSchema)
      .max(RUN_REQUEST_LIMITS.attachments, `must have at most ${RUN_REQUEST_LIMITS.attachments} files`)
      .refine(
        (files) => files.reduce((sum, f) => sum + base64DecodedBytes(f.data), 0) <= RUN_REQUEST_LIMITS.attachmentsTotalBytes,
        `must decode to at most ${mib(RUN_REQUEST_LIMITS.attachmentsTotalBytes)} together`,
      )
      .optional()
      .describe(`Files given to the agent (at most ${RUN_REQUEST_LIMITS.attachments})`),
    conversation_id: id('conversation id').optional().describe('Continue this conversation'),
    parent_run_id: id('run id').optional().describe('The run that started this one (orchestration)'),
    interactive: z.boolean().optional().describe('Whether the run is interactive (default false)'),
    agent_identity_uid: id('agent identity uid').optional().describe('The named agent the run executes as (team runs)'),
    on_behalf_of: id('user uid').optional().describe('The user the run acts for'),
  })
  .superRefine((value, ctx) => {
    const hasSkill = Boolean(value.skill || value.config?.skill_spec || value.config?.skills?.length);
    if (!hasSkill && !value.conversation_id && (value.prompt === undefined || value.prompt.trim() === '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['prompt'],
        message: 'is required (a non-empty string) unless a skill is given in skill, config.skill_spec or config.skills, or a conversation_id to continue',
      });
    }
  })
  .describe('Request body for creating a run');

export type RunAgentRequest = z.infer<typeof RunAgentRequestSchema>;
