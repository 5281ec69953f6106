import { z } from 'zod';

/** The lifecycle events a client may report for a run (the service's enum). */
export const REPORTABLE_AGENT_EVENT_TYPES = ['run_in_progress', 'run_succeeded', 'run_failed', 'run_errored', 'run_blocked', 'run_cancelled'] as const;
/** Most events one poll answers, and its default. */
export const MAX_AGENT_EVENTS_PAGE = 500;
export const DEFAULT_AGENT_EVENTS_PAGE = 100;
/** Most runs one poll watches. */
export const MAX_WATCHED_RUNS = 100;
/** Longest `execution_id` or `ref_id` kept. */
export const MAX_AGENT_EVENT_REF_CHARS = 256;

const ref = (what: string) =>
  z.string({ error: `must be a string (${what})` }).min(1, `must not be empty (${what})`).max(MAX_AGENT_EVENT_REF_CHARS, `must be at most ${MAX_AGENT_EVENT_REF_CHARS} characters`);

/** The body of `POST /agent/events/{runId}`. */
export const ReportAgentEventRequestSchema = z
  .strictObject({
    event_type: z.enum(REPORTABLE_AGENT_EVENT_TYPES, { error: `must be one of ${REPORTABLE_AGENT_EVENT_TYPES.join(', ')}` }),
    execution_id: ref('the client-assigned execution id').optional(),
    ref_id: ref('an event-type-specific reference').optional(),
  })
  .describe('A lifecycle event a client reports for a run');
export type ReportAgentEventRequest = z.input<typeof ReportAgentEventRequestSchema>;

export const ReportAgentEventResponseSchema = z.looseObject({ sequence: z.number().int() });
export type ReportAgentEventResponse = z.infer<typeof ReportAgentEventResponseSchema>;

/**
 * One event of the feed. `event_type` is a reported type or one the server records itself
 * (`new_message`, its `ref_id` the message's id).
 */
export const AgentEventSchema = z.looseObject({
  event_type: z.string(),
  run_id: z.string(),
  ref_id: z.string().nullable().optional(),
  execution_id: z.string().nullable().optional(),
  occurred_at: z.string(),
  sequence: z.number().int(),
});
export type AgentEvent = z.infer<typeof AgentEventSchema>;
export const AgentEventListSchema = z.array(AgentEventSchema);

/** `since` and `limit` of `GET /agent/events` (the run ids are read apart, as a repeated or comma-separated parameter). */
export const PollAgentEventsQuerySchema = z.object({
  since: z.coerce
    .number({ error: 'must be a sequence number (an integer ≥ 0)' })
    .int('must be a sequence number (an integer ≥ 0)')
    .min(0, 'must be a sequence number (an integer ≥ 0)')
    .optional(),
  limit: z.coerce
    .number({ error: `must be an integer from 1 to ${MAX_AGENT_EVENTS_PAGE}` })
    .int(`must be an integer from 1 to ${MAX_AGENT_EVENTS_PAGE}`)
    .min(1, `must be an integer from 1 to ${MAX_AGENT_EVENTS_PAGE}`)
    .max(MAX_AGENT_EVENTS_PAGE, `must be an integer from 1 to ${MAX_AGENT_EVENTS_PAGE}`)
    .optional(),
});
