// The client's public surface, named one by one: what is not listed here is internal.
// Server-only parts of the contract are exported from `@agent-runs/core/contract`.

// The client and its resources.
export { AgentRunsClient, type GenericRequest } from './client.js';
export { Runs, type CreateAndWaitOptions } from './resources/runs.js';
export { RunsPage, PagePromise } from './resources/runs-page.js';
export { APIPromise, type ResponseInfo, type WithResponse } from './internal/api-promise.js';
export type { ClientOptions, RequestOptions } from './internal/options.js';
export type { Logger, LogLevel } from './internal/logger.js';
export {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  ENV,
  API_KEY_VARIABLES,
  isLoopbackHost,
} from './internal/client-config.js';
export { backoffDelay, retryAfterMs } from './internal/retry-timing.js';
export { VERSION } from './internal/version.js';

// Waiting for a run.
export { waitForRun } from './wait/wait-for-run.js';
export {
  DEFAULT_WAIT_TIMEOUT_MS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_MAX_POLL_INTERVAL_MS,
  type RunUpdate,
  type WaitOptions,
} from './wait/wait-options.js';

// Errors.
export { AgentRunsError } from './errors/agent-runs-error.js';
export {
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  type ResponseHeaders,
} from './errors/api-error.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  APIResponseValidationError,
} from './errors/connection-errors.js';
export { RequestValidationError, ClientConfigError } from './errors/request-validation-error.js';
export { WaitTimeoutError } from './errors/wait-timeout-error.js';

// The contract: schemas and the types inferred from them.
export {
  KNOWN_RUN_STATES,
  KnownRunStateSchema,
  RunStateSchema,
  TERMINAL_RUN_STATES,
  isTerminalState,
  type KnownRunState,
  type RunState,
} from './contract/run-state.js';
export {
  KNOWN_RUN_SOURCE_TYPES,
  KnownRunSourceTypeSchema,
  RunSourceTypeSchema,
  type KnownRunSourceType,
  type RunSourceType,
} from './contract/run-source-type.js';
export {
  MCPServerConfigSchema,
  MCPServersSchema,
  type MCPServerConfig,
  type MCPServers,
} from './contract/mcp-server-config.js';
export { AmbientAgentConfigSchema, type AmbientAgentConfig } from './contract/ambient-agent-config.js';
export { RunAgentRequestSchema, type RunAgentRequest } from './contract/run-agent-request.js';
export { RunAgentResponseSchema, type RunAgentResponse } from './contract/run-agent-response.js';
export {
  RunStatusMessageSchema,
  RunCreatorInfoSchema,
  RequestUsageSchema,
  RunItemSchema,
  type RunStatusMessage,
  type RunCreatorInfo,
  type RunItem,
} from './contract/run-item.js';
export {
  PageInfoSchema,
  ListRunsResponseSchema,
  ListRunsQuerySchema,
  LIST_SORT_FIELDS,
  LIST_SORT_ORDERS,
  LIST_LIMIT_MAX,
  LIST_LIMIT_DEFAULT,
  type PageInfo,
  type ListRunsResponse,
  type ParsedListRunsQuery,
  type ListRunsQuery,
} from './contract/list-runs.js';
export { ErrorBodySchema, errorCodeOf, type ErrorBody } from './contract/error-body.js';
export type { ErrorCode } from './contract/error-codes.js';
export { formatIssues, issuePath } from './contract/format-issues.js';
export { PROMPT_MAX_CHARS, TITLE_MAX_CHARS, REQUEST_BODY_MAX_BYTES } from './contract/request-limits.js';

// Helpers the adapters share.
export {
  parseDuration,
  readDuration,
  DURATION_HINT,
  MAX_DURATION,
  MAX_DURATION_MS,
  formatElapsed,
  type DurationReading,
} from './format/duration.js';
export { visibleText, type VisibleTextOptions } from './format/visible-text.js';
export { runDurationMs, describeState, runSummaryRows, summarizeRun } from './format/run-summary.js';
export { parseMcpServersInput } from './input/mcp-servers-input.js';
