export * from './webhook-contract.js';
export { signWebhook } from './sign-webhook.js';
export { verifyWebhook, type VerifyWebhookOptions } from './verify-webhook.js';
export { WebhookVerificationError } from './webhook-verification-error.js';
