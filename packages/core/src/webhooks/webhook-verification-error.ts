/** A delivery that is not from the holder of the secret, is too old or too new, or is malformed. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}
