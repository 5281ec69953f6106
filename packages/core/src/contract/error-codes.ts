/** Error codes of the contract (PlatformErrorCode) and the status each answers with. */
export const ERROR_CODE_STATUS = {
  invalid_request: 400,
  authentication_required: 401,
  not_authorized: 403,
  resource_not_found: 404,
  conflict: 409,
  operation_not_supported: 422,
  rate_limited: 429,
  internal_error: 500,
  resource_unavailable: 503,
  insufficient_credits: 402,
  feature_not_available: 403,
  external_authentication_required: 403,
  budget_exceeded: 402,
  integration_disabled: 422,
  integration_not_configured: 422,
  environment_setup_failed: 422,
  content_policy_violation: 422,
} as const;

export type ErrorCode = keyof typeof ERROR_CODE_STATUS;

/** Base of the `type` URI of problem bodies; the last segment is the error code. */
export const ERROR_TYPE_BASE = 'https://docs.warp.dev/reference/api-and-sdk/troubleshooting/errors/';
