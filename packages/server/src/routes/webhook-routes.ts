import type { AppRoute } from './app-context.js';
import { createWebhookRoute } from './create-webhook.js';
import { deleteWebhookRoute } from './delete-webhook.js';
import { getWebhookRoute } from './get-webhook.js';
import { listWebhookDeliveriesRoute } from './list-webhook-deliveries.js';
import { listWebhooksRoute } from './list-webhooks.js';
import { redeliverWebhookRoute } from './redeliver-webhook.js';
import { rotateWebhookSecretRoute } from './rotate-webhook-secret.js';
import { testWebhookRoute } from './test-webhook.js';
import { updateWebhookRoute } from './update-webhook.js';

/** The webhook subscriptions' routes, an extension of the API. */
export const webhookRoutes: AppRoute[] = [
  createWebhookRoute,
  listWebhooksRoute,
  getWebhookRoute,
  updateWebhookRoute,
  deleteWebhookRoute,
  rotateWebhookSecretRoute,
  listWebhookDeliveriesRoute,
  redeliverWebhookRoute,
  testWebhookRoute,
];
