import { z } from 'zod';

/** `GET /agent/sessions/{sessionUuid}/redirect`: the conversation a session belongs to, when there is one. */
export const SessionCheckRedirectResponseSchema = z
  .looseObject({ conversation_id: z.string().optional() })
  .describe('The conversation of a session');

export type SessionCheckRedirectResponse = z.infer<typeof SessionCheckRedirectResponseSchema>;

/** `GET /agent/conversations/{conversationId}/redirect`: the session a conversation is shown in, when there is one. */
export const ConversationCheckRedirectResponseSchema = z
  .looseObject({ session_id: z.string().optional() })
  .describe('The session of a conversation');

export type ConversationCheckRedirectResponse = z.infer<typeof ConversationCheckRedirectResponseSchema>;
