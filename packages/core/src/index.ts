// The client's public surface, named one by one: what is not listed here is internal.
// Server-only parts of the contract are exported from `@agent-runs/core/contract`.

// The client and its resources.
export { AgentRunsClient, type GenericRequest } from './client.js';
export { Runs, type CreateAndWaitOptions } from './resources/runs.js';
export { RunsPage, PagePromise } from './resources/runs-page.js';
export { Sessions } from './resources/sessions.js';
export { Conversations } from './resources/conversations.js';
export { Schedules } from './resources/schedules.js';
export { Messages, type ListAgentMessagesQuery } from './resources/messages.js';
export { Events, type PollAgentEventsQuery } from './resources/events.js';
export { Webhooks } from './resources/webhooks.js';
export { Environments } from './resources/environments.js';
export { Models } from './resources/models.js';
export { Skills } from './resources/skills.js';
export { Agents, Identities } from './resources/agents.js';
export { Workers } from './resources/workers.js';
export { Quota } from './resources/quota.js';
export type { RunStreamEvent, RunEventsOptions } from './wait/follow-run-events.js';
export { Artifacts, type ArtifactDownloadResult } from './resources/artifacts.js';
export type { DownloadTarget, DownloadProgress, DownloadResult } from './internal/download-url.js';
export { APIPromise, type ResponseInfo, type WithResponse } from './internal/api-promise.js';
export type { ClientOptions, RequestOptions } from './internal/options.js';
export type { Logger, LogLevel } from './internal/logger.js';
export { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './internal/client-config.js';

// Connecting: one home for what every adapter needs before its first call.
export { ENV, API_KEY_VARIABLES, envSetting, apiKeyFromEnv } from './connection/env-settings.js';
export {
  DEFAULT_BASE_URL,
  isLoopbackHost,
  baseURLProblem,
  parseBaseURL,
  missingApiKeyProblem,
  type ApiKeyTarget,
} from './connection/base-url.js';
export { readPromptFile, PROMPT_FILE_MAX_BYTES } from './input/prompt-file.js';
export { VERSION } from './internal/version.js';

// Waiting for a run.
export { waitForRun } from './wait/poll-run.js';
export { hasRunChanged, hasStatusChanged } from './wait/run-changes.js';
export { type FollowOptions, type FollowOutcome, type RunChange } from './wait/follow-run.js';
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
export { RequestValidationError, ClientConfigError, withIssueNames } from './errors/request-validation-error.js';
export { WaitTimeoutError } from './errors/wait-timeout-error.js';
export { ArtifactNotDownloadableError } from './errors/artifact-not-downloadable-error.js';
export { DownloadWriteError } from './errors/download-write-error.js';

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
export { RunBudgetSchema, RunBudgetCapsSchema, BUDGET_LIMITS, BUDGET_MINIMA, type RunBudget } from './contract/run-budget.js';
export {
  RunAgentRequestSchema,
  AttachmentInputSchema,
  RunMetadataSchema,
  RUN_REQUEST_LIMITS,
  base64DecodedBytes,
  type RunAgentRequest,
  type AttachmentInput,
} from './contract/run-agent-request.js';
export { RunAgentResponseSchema, type RunAgentResponse } from './contract/run-agent-response.js';
export {
  RunStatusMessageSchema,
  RunCreatorInfoSchema,
  RunAgentSkillSchema,
  RunScheduleSchema,
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
export { UserProfileSchema, ScopeSchema } from './contract/user-profile.js';
export type { UserProfile, Scope } from './contract/user-profile.js';
export {
  CloudEnvironmentConfigSchema,
  CloudEnvironmentSchema,
  ListEnvironmentsResponseSchema,
  ListEnvironmentsQuerySchema,
  ENVIRONMENT_SORT_FIELDS,
  type CloudEnvironmentConfig,
  type CloudEnvironment,
  type ListEnvironmentsResponse,
  type ListEnvironmentsQuery,
} from './contract/cloud-environment.js';
export { ListModelsResponseSchema, ModelInfoSchema, type ListModelsResponse, type ModelInfo } from './contract/list-models.js';
export {
  ConnectedWorkerSchema,
  ConnectedWorkersResponseSchema,
  WORKER_HOST_PATTERN,
  HOSTED_WORKER_HOST,
  type ConnectedWorker,
  type ConnectedWorkersResponse,
} from './contract/connected-worker.js';
export { PrincipalQuotaResponseSchema, type PrincipalQuotaResponse } from './contract/principal-quota.js';
export {
  AgentSkillSourceSchema,
  AgentSkillVariantSchema,
  AgentSkillSchema,
  ListAgentSkillsResponseSchema,
  ListAgentSkillsQuerySchema,
  SKILL_SORT_FIELDS,
  type AgentSkill,
  type AgentSkillVariant,
  type ListAgentSkillsResponse,
  type ListAgentSkillsQuery,
} from './contract/agent-skill.js';
export {
  SCHEDULE_METADATA_MAX_KEYS,
  SCHEDULE_MODES,
  ScheduleCreateRequestSchema,
  ScheduleUpdateRequestSchema,
  ScheduledAgentHistorySchema,
  ScheduledAgentItemSchema,
  ListSchedulesResponseSchema,
  ScheduleDeleteResponseSchema,
  type ScheduleCreateRequest,
  type ScheduleUpdateRequest,
  type ScheduledAgentItem,
  type ListSchedulesResponse,
  type ScheduleDeleteResponse,
} from './contract/schedule.js';
export {
  AGENT_TYPES,
  CreateAgentIdentityRequestSchema,
  UpdateAgentIdentityRequestSchema,
  AgentIdentitySchema,
  ListAgentIdentitiesResponseSchema,
  ListAgentIdentitiesQuerySchema,
  type CreateAgentIdentityRequest,
  type UpdateAgentIdentityRequest,
  type AgentIdentity,
  type ListAgentIdentitiesResponse,
  type ListAgentIdentitiesQuery,
} from './contract/agent-identity.js';
export {
  RunOutputStreamSchema,
  RunOutputDataSchema,
  RunSkippedDataSchema,
  RunOutputChunkSchema,
  RunOutputPageSchema,
  RUN_EVENT_SCHEMAS,
  type RunOutputData,
  type RunSkippedData,
  type RunOutputChunk,
  type RunOutputPage,
  type RunEventName,
} from './contract/run-event-schemas.js';
export { RUN_MODES, RunModeSchema } from './contract/run-mode.js';
export type { RunMode } from './contract/run-mode.js';
export {
  KNOWN_ARTIFACT_TYPES,
  ArtifactTypeSchema,
  PlanArtifactSchema,
  PullRequestArtifactSchema,
  ScreenshotArtifactSchema,
  FileArtifactSchema,
  ExternalReferenceArtifactSchema,
  KnownArtifactItemSchema,
  ArtifactItemSchema,
  isArtifactOfType,
} from './contract/artifact-item.js';
export type {
  KnownArtifactType,
  PlanArtifact,
  PullRequestArtifact,
  ScreenshotArtifact,
  FileArtifact,
  ExternalReferenceArtifact,
  KnownArtifactItem,
  UnknownArtifactItem,
  ArtifactItem,
} from './contract/artifact-item.js';
export { RequestUsageSchema, InferenceUsageSchema, UsageByCategorySchema } from './contract/request-usage.js';
export type { RequestUsage } from './contract/request-usage.js';
export {
  SessionCheckRedirectResponseSchema,
  ConversationCheckRedirectResponseSchema,
} from './contract/redirects.js';
export type { SessionCheckRedirectResponse, ConversationCheckRedirectResponse } from './contract/redirects.js';
export { ErrorBodySchema, errorCodeOf, type ErrorBody } from './contract/error-body.js';
export type { ErrorCode } from './contract/error-codes.js';
export {
  formatIssues,
  validationIssues,
  describeIssues,
  nameIssues,
  type ValidationIssue,
  type IssueNames,
} from './contract/format-issues.js';
export { definedOnly, type DefinedOnly } from './contract/defined-only.js';
export {
  ArtifactResponseSchema,
  PlanArtifactResponseSchema,
  ScreenshotArtifactResponseSchema,
  FileArtifactResponseSchema,
  isDownloadableArtifact,
  type ArtifactResponse,
  type FileArtifactResponse,
  type ScreenshotArtifactResponse,
  type PlanArtifactResponse,
} from './contract/artifact-response.js';
export {
  MAX_FOLLOWUP_MESSAGE_CHARS,
  RunFollowupRequestSchema,
  RunFollowupResponseSchema,
  type RunFollowupRequest,
  type RunFollowupResponse,
} from './contract/followup.js';
export {
  ConversationResponseSchema,
  ConversationStepSchema,
  ConversationMessageSchema,
  ConversationContentBlockSchema,
  type ConversationResponse,
  type ConversationStep,
  type ConversationMessage,
  type ConversationContentBlock,
} from './contract/conversation.js';
export { HandoffAttachmentsResponseSchema, type HandoffAttachmentsResponse } from './contract/handoff-attachments.js';
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
export { runDurationMs, describeState, runHeadline, runSummaryRows, summarizeRun } from './format/run-summary.js';
export { formatSpend } from './format/run-spend.js';
export { buildRunTree, childStates, treeRuns, MAX_TREE_RUNS, type RunTreeNode } from './tree/index.js';
export { formatUsage, formatUsd } from './format/usage-line.js';
export { parseMcpServersInput } from './input/mcp-servers-input.js';
export { environmentIdFor, agentUidFor, identityUidFor } from './input/ids-from-names.js';
export { summarizeArtifact, firstPullRequest, runArtifacts, type ArtifactSummary } from './format/artifact-summary.js';
export { safeFileName } from './format/safe-file-name.js';
export { artifactFileName } from './format/artifact-file-name.js';

// Webhooks: the subscriptions' contract, and checking a delivery where it is received.
export {
  WEBHOOK_EVENT_TYPES,
  WebhookEventTypeSchema,
  WebhookFilterSchema,
  WebhookCreateRequestSchema,
  WebhookUpdateRequestSchema,
  WebhookRotateRequestSchema,
  WebhookSubscriptionSchema,
  ListWebhooksResponseSchema,
  WebhookDeliverySchema,
  ListWebhookDeliveriesResponseSchema,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEventType,
  type WebhookFilter,
  type WebhookCreateRequest,
  type WebhookUpdateRequest,
  type WebhookRotateRequest,
  type WebhookSubscription,
  type ListWebhooksResponse,
  type WebhookDelivery,
  type ListWebhookDeliveriesResponse,
  type WebhookEvent,
} from './webhooks/index.js';
