export * from './webhook-contract.js';
export { signWebhook, verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions } from './verify-webhook.js';
