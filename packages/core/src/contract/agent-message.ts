import { z } from 'zod';

/** Longest subject a message may have, in characters (the service's `maxLength`). */
export const MAX_MESSAGE_SUBJECT_CHARS = 1024;
/** Longest body a message may have, in characters (128 KiB, the service's `maxLength`). */
export const MAX_MESSAGE_BODY_CHARS = 131_072;
/** Most recipients one send names. */
export const MAX_MESSAGE_RECIPIENTS = 100;
/** Most messages one inbox page answers, and its default. */
export const MAX_INBOX_PAGE = 100;
export const DEFAULT_INBOX_PAGE = 50;

const runId = (what: string) => z.string({ error: `must be a run id (${what})` }).min(1, `must be a run id (${what})`);

/** The body of `POST /agent/messages`: one message to each of `to`, from the run `sender_run_id`. */
export const SendAgentMessageRequestSchema = z
  .strictObject({
    to: z
      .array(runId('a recipient'), { error: 'is required: an array of recipient run ids' })
      .min(1, 'must name at least one recipient run id')
      .max(MAX_MESSAGE_RECIPIENTS, `must name at most ${MAX_MESSAGE_RECIPIENTS} recipients`),
    subject: z
      .string({ error: 'is required: a string' })
      .max(MAX_MESSAGE_SUBJECT_CHARS, `must be at most ${MAX_MESSAGE_SUBJECT_CHARS} characters`),
    body: z.string({ error: 'is required: a string' }).max(MAX_MESSAGE_BODY_CHARS, `must be at most ${MAX_MESSAGE_BODY_CHARS} characters (128 KiB)`),
    sender_run_id: runId('the sender'),
  })
  .describe('A message from one run to one or more runs');

export type SendAgentMessageRequest = z.input<typeof SendAgentMessageRequestSchema>;

/** The answer to a send: one message id per recipient, in the order of `to`. */
export const SendAgentMessageResponseSchema = z.looseObject({ message_ids: z.array(z.string()) });
export type SendAgentMessageResponse = z.infer<typeof SendAgentMessageResponseSchema>;

/** A message's header, as an inbox lists it. */
export const AgentMessageHeaderSchema = z.looseObject({
  message_id: z.string(),
  sender_run_id: z.string(),
  subject: z.string(),
  sent_at: z.string(),
  delivered_at: z.string().nullable().optional(),
  read_at: z.string().nullable().optional(),
});
export type AgentMessageHeader = z.infer<typeof AgentMessageHeaderSchema>;

/** A message in full, as a read answers it. */
export const AgentMessageSchema = AgentMessageHeaderSchema.extend({ body: z.string() });
export type AgentMessage = z.infer<typeof AgentMessageSchema>;

export const AgentMessageListSchema = z.array(AgentMessageHeaderSchema);

/** The query of `GET /agent/messages/{runId}`. */
export const ListAgentMessagesQuerySchema = z.strictObject({
  unread: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  since: z.iso.datetime({ offset: true, error: 'must be an RFC 3339 date-time, e.g. 2026-01-01T00:00:00Z' }).optional(),
  limit: z.coerce
    .number({ error: `must be an integer from 1 to ${MAX_INBOX_PAGE}` })
    .int(`must be an integer from 1 to ${MAX_INBOX_PAGE}`)
    .min(1, `must be an integer from 1 to ${MAX_INBOX_PAGE}`)
    .max(MAX_INBOX_PAGE, `must be an integer from 1 to ${MAX_INBOX_PAGE}`)
    .optional(),
});
