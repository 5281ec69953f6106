import {
  ListWebhookDeliveriesResponseSchema,
  ListWebhooksResponseSchema,
  WebhookCreateRequestSchema,
  WebhookDeliverySchema,
  WebhookRotateRequestSchema,
  WebhookSubscriptionSchema,
  WebhookUpdateRequestSchema,
  type ListWebhookDeliveriesResponse,
  type ListWebhooksResponse,
  type WebhookCreateRequest,
  type WebhookDelivery,
  type WebhookRotateRequest,
  type WebhookSubscription,
  type WebhookUpdateRequest,
} from '../webhooks/webhook-contract.js';
import { z } from 'zod';
import type { APIPromise } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, pathSegment, validate, type Send } from '../internal/resource-helpers.js';

const webhookPath = (id: string) => `/agent/webhooks/${pathSegment('webhookId', id)}`;
const DeletedSchema = z.looseObject({ success: z.boolean() });

/**
 * `client.webhooks`: signed pushes when a run changes (an extension of the API). A create
 * is not retried once sent (it would make a second subscription); the rest are safe to repeat.
 */
export class Webhooks {
  constructor(private readonly send: Send) {}

  /** `POST /agent/webhooks`: the answer carries the `whsec_…` secret, shown this once. */
  create(body: WebhookCreateRequest, options: RequestOptions = {}): APIPromise<WebhookSubscription> {
    return guard(() =>
      this.send({ method: 'POST', path: '/agent/webhooks', body: validate(WebhookCreateRequestSchema, body, 'webhook'), schema: WebhookSubscriptionSchema, ...options }),
    );
  }

  /** `GET /agent/webhooks`: the caller's subscriptions. */
  list(options: RequestOptions = {}): APIPromise<ListWebhooksResponse> {
    return guard(() => this.send({ method: 'GET', path: '/agent/webhooks', schema: ListWebhooksResponseSchema, ...options }));
  }

  get(webhookId: string, options: RequestOptions = {}): APIPromise<WebhookSubscription> {
    return guard(() => this.send({ method: 'GET', path: webhookPath(webhookId), schema: WebhookSubscriptionSchema, ...options }));
  }

  /** `PUT /agent/webhooks/{webhookId}`: the fields given replace those stored. */
  update(webhookId: string, body: WebhookUpdateRequest, options: RequestOptions = {}): APIPromise<WebhookSubscription> {
    return guard(() =>
      this.send({ method: 'PUT', path: webhookPath(webhookId), body: validate(WebhookUpdateRequestSchema, body, 'webhook'), schema: WebhookSubscriptionSchema, ...options }),
    );
  }

  delete(webhookId: string, options: RequestOptions = {}): APIPromise<{ success: boolean }> {
    return guard(() => this.send({ method: 'DELETE', path: webhookPath(webhookId), schema: DeletedSchema, ...options }));
  }

  /** A new secret, shown once; the old one keeps signing beside it for `overlap_seconds` (default a day). Not retried. */
  rotateSecret(webhookId: string, body: WebhookRotateRequest = {}, options: RequestOptions = {}): APIPromise<WebhookSubscription> {
    return guard(() =>
      this.send({
        method: 'POST',
        path: `${webhookPath(webhookId)}/rotate-secret`,
        body: validate(WebhookRotateRequestSchema, body, 'rotation'),
        schema: WebhookSubscriptionSchema,
        ...options,
      }),
    );
  }

  /** `GET /agent/webhooks/{webhookId}/deliveries`: newest first. */
  deliveries(webhookId: string, query: { limit?: number } = {}, options: RequestOptions = {}): APIPromise<ListWebhookDeliveriesResponse> {
    const path = `${webhookPath(webhookId)}/deliveries${query.limit !== undefined ? `?limit=${query.limit}` : ''}`;
    return guard(() => this.send({ method: 'GET', path, schema: ListWebhookDeliveriesResponseSchema, ...options }));
  }

  /** Sends a delivery again, with the same `webhook-id`; asking twice is harmless, so it is retried. */
  redeliver(webhookId: string, deliveryId: string, options: RequestOptions = {}): APIPromise<WebhookDelivery> {
    return guard(() =>
      this.send({
        method: 'POST',
        path: `${webhookPath(webhookId)}/deliveries/${pathSegment('deliveryId', deliveryId)}/redeliver`,
        schema: WebhookDeliverySchema,
        idempotent: true,
        ...options,
      }),
    );
  }

  /** Queues a `webhook.test` event to the subscription. */
  test(webhookId: string, options: RequestOptions = {}): APIPromise<WebhookDelivery> {
    return guard(() => this.send({ method: 'POST', path: `${webhookPath(webhookId)}/test`, schema: WebhookDeliverySchema, ...options }));
  }
}
