import { z } from 'zod';
import { KnownRunStateSchema } from '../contract/run-state.js';

/** Every event type a subscription may ask for. */
export const WEBHOOK_EVENT_TYPES = [
  'run.created',
  'run.state_changed',
  'run.succeeded',
  'run.failed',
  'run.cancelled',
  'run.artifact_created',
  'run.followup_received',
  'schedule.fired',
  'schedule.failed',
] as const;

export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, {
  error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
});
export type WebhookEventType = z.output<typeof WebhookEventTypeSchema>;

/** Which events of the wanted types are sent: every field given must match. */
export const WebhookFilterSchema = z.strictObject({
  /** The run's state after the change (for run events). */
  states: z.array(KnownRunStateSchema).max(20, 'at most 20 states').optional(),
  environment_id: z.string().min(1).max(200).optional(),
  schedule_id: z.string().min(1).max(200).optional(),
});
export type WebhookFilter = z.output<typeof WebhookFilterSchema>;

const UrlSchema = z
  .string({ error: 'must be an https URL such as https://example.com/hooks' })
  .max(2000, 'at most 2000 characters')
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an https URL such as https://example.com/hooks');

/** `POST /agent/webhooks`. */
export const WebhookCreateRequestSchema = z.strictObject({
  url: UrlSchema,
  /** The types wanted; every type when left out. */
  event_types: z.array(WebhookEventTypeSchema).min(1, 'name at least one event type, or leave event_types out for all').optional(),
  filter: WebhookFilterSchema.optional(),
  enabled: z.boolean().optional(),
  /** Ids only in `data` (the receiver reads the run itself). */
  thin: z.boolean().optional(),
  description: z.string().max(500, 'at most 500 characters').optional(),
});
export type WebhookCreateRequest = z.input<typeof WebhookCreateRequestSchema>;

/** `PUT /agent/webhooks/{webhookId}`: the fields given replace those stored. */
export const WebhookUpdateRequestSchema = WebhookCreateRequestSchema.partial();
export type WebhookUpdateRequest = z.input<typeof WebhookUpdateRequestSchema>;

/** `POST /agent/webhooks/{webhookId}/rotate-secret`. */
export const WebhookRotateRequestSchema = z.strictObject({
  /** How long the old secret keeps signing beside the new one; default one day, at most a week. */
  overlap_seconds: z.number().int().min(0).max(7 * 24 * 3600, 'at most 604800 (a week)').optional(),
});
export type WebhookRotateRequest = z.input<typeof WebhookRotateRequestSchema>;

/** A subscription as the API answers it; the secret only in the answer to a create or rotation. */
export const WebhookSubscriptionSchema = z.looseObject({
  id: z.string(),
  url: z.string(),
  event_types: z.array(z.string()),
  filter: z.looseObject({}).optional(),
  enabled: z.boolean(),
  thin: z.boolean(),
  description: z.string().nullish(),
  disabled_reason: z.string().nullish(),
  /** Who owns it; null for one the operator declared. */
  owner: z.string().nullish(),
  /** Declared in the server's configuration file: changed there, not through the API (which answers 409). */
  operator_managed: z.boolean().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  /** `whsec_…`: shown once. */
  secret: z.string().optional(),
  previous_secret_expires_at: z.string().nullish(),
});
export type WebhookSubscription = z.output<typeof WebhookSubscriptionSchema>;

export const ListWebhooksResponseSchema = z.looseObject({ webhooks: z.array(WebhookSubscriptionSchema) });
export type ListWebhooksResponse = z.output<typeof ListWebhooksResponseSchema>;

/** One message to one subscription, and how sending it went. */
export const WebhookDeliverySchema = z.looseObject({
  id: z.string(),
  webhook_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']).or(z.string()),
  attempts: z.number(),
  created_at: z.string(),
  last_attempt_at: z.string().nullish(),
  last_response_status: z.number().nullish(),
  last_response_body: z.string().nullish(),
  last_error: z.string().nullish(),
  next_attempt_at: z.string().nullish(),
  payload: z.unknown().optional(),
});
export type WebhookDelivery = z.output<typeof WebhookDeliverySchema>;

export const ListWebhookDeliveriesResponseSchema = z.looseObject({ deliveries: z.array(WebhookDeliverySchema) });
export type ListWebhookDeliveriesResponse = z.output<typeof ListWebhookDeliveriesResponseSchema>;

/** What a receiver gets: `data` is the run as `GET /agent/runs/{runId}` answers it (ids only in thin mode). */
export interface WebhookEvent<T = Record<string, unknown>> {
  type: WebhookEventType | 'webhook.test';
  timestamp: string;
  data: T;
}
