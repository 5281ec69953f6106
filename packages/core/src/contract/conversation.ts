import { z } from 'zod';

const textBlock = z.looseObject({ type: z.literal('text'), message_id: z.string().optional(), text: z.string() });
const actionBlock = z.looseObject({
  type: z.literal('action'),
  message_id: z.string().optional(),
  id: z.string(),
  category: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
const actionResultBlock = z.looseObject({
  type: z.literal('action_result'),
  message_id: z.string().optional(),
  action_id: z.string(),
  category: z.string(),
  name: z.string(),
  state: z.string(),
  output: z.record(z.string(), z.unknown()),
});
const eventBlock = z.looseObject({
  type: z.literal('event'),
  message_id: z.string().optional(),
  name: z.string(),
  data: z.record(z.string(), z.unknown()),
});
/** A block of another type, from a newer service: kept, not dropped. */
const otherBlock = z.looseObject({ type: z.string() });

export const ConversationContentBlockSchema = z.union([textBlock, actionBlock, actionResultBlock, eventBlock, otherBlock]);
export type ConversationContentBlock = z.infer<typeof ConversationContentBlockSchema>;

export const ConversationMessageSchema = z.looseObject({
  message_ids: z.array(z.string()).optional(),
  request_id: z.string().optional(),
  role: z.union([z.enum(['user', 'assistant', 'tool', 'system']), z.string()]),
  timestamp: z.string().optional().describe('RFC 3339'),
  content: z.array(ConversationContentBlockSchema),
});
export type ConversationMessage = z.infer<typeof ConversationMessageSchema>;

/** One step of a conversation; nested steps (delegated work) have the same shape. */
export const ConversationStepSchema = z.looseObject({
  id: z.string(),
  description: z.string().optional(),
  summary: z.string().optional(),
  started_at: z.string().optional(),
  completed_at: z.string().optional(),
  messages: z.array(ConversationMessageSchema),
  // Not described recursively, so the schema stays a plain JSON Schema; nested steps are kept as they come.
  steps: z.array(z.unknown()).describe('Nested steps, each of this same shape'),
});
export type ConversationStep = z.infer<typeof ConversationStepSchema>;

/**
 * `GET /agent/runs/{runId}/conversation` (one run's messages) and `GET /agent/conversations/{conversationId}`
 * (every run's of the conversation), normalised into steps.
 */
export const ConversationResponseSchema = z
  .looseObject({
    conversation_id: z.string(),
    steps: z.array(ConversationStepSchema),
  })
  .describe('A normalised conversation');
export type ConversationResponse = z.infer<typeof ConversationResponseSchema>;
