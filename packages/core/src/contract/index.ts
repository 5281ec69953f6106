/**
 * `@agent-runs/core/contract`: the wire contract for servers that implement the API.
 * Everything a client needs is also exported from the main entry; what only a server
 * needs (how a caller's source is read, the error-code status table) is exported here alone.
 */
export { KNOWN_RUN_STATES, KnownRunStateSchema, RunStateSchema, TERMINAL_RUN_STATES, isTerminalState } from './run-state.js';
export type { KnownRunState, RunState } from './run-state.js';
export { KNOWN_RUN_SOURCE_TYPES, KnownRunSourceTypeSchema, RunSourceTypeSchema } from './run-source-type.js';
export type { KnownRunSourceType, RunSourceType } from './run-source-type.js';
export { MCPServerConfigSchema, MCPServersSchema } from './mcp-server-config.js';
export type { MCPServerConfig, MCPServers } from './mcp-server-config.js';
export { AmbientAgentConfigSchema } from './ambient-agent-config.js';
export type { AmbientAgentConfig } from './ambient-agent-config.js';
export {
  RunAgentRequestSchema,
  AttachmentInputSchema,
  RunMetadataSchema,
  RUN_REQUEST_LIMITS,
  RUN_REQUEST_MAX_BODY_BYTES,
  base64DecodedBytes,
} from './run-agent-request.js';
export type { RunAgentRequest, AttachmentInput } from './run-agent-request.js';
export { RunAgentResponseSchema } from './run-agent-response.js';
export type { RunAgentResponse } from './run-agent-response.js';
export {
  RunStatusMessageSchema,
  RunCreatorInfoSchema,
  RunAgentSkillSchema,
  RunScheduleSchema,
  RunItemSchema,
} from './run-item.js';
export type { RunStatusMessage, RunCreatorInfo, RunItem } from './run-item.js';
export {
  PageInfoSchema,
  ListRunsResponseSchema,
  ListRunsQuerySchema,
  LIST_SORT_FIELDS,
  LIST_SORT_ORDERS,
  LIST_LIMIT_MAX,
  LIST_LIMIT_DEFAULT,
  listQueryFromSearchParams,
} from './list-runs.js';
export type { PageInfo, ListRunsResponse, ParsedListRunsQuery, ListRunsQuery } from './list-runs.js';
export { UserProfileSchema, ScopeSchema } from './user-profile.js';
export type { UserProfile, Scope } from './user-profile.js';
export { RUN_MODES, RunModeSchema } from './run-mode.js';
export type { RunMode } from './run-mode.js';
export { CloudEnvironmentConfigSchema, CloudEnvironmentSchema, ListEnvironmentsResponseSchema, ListEnvironmentsQuerySchema, ENVIRONMENT_SORT_FIELDS } from './cloud-environment.js';
export type { CloudEnvironmentConfig, CloudEnvironment, ListEnvironmentsResponse, ListEnvironmentsQuery } from './cloud-environment.js';
export { AgentSkillSourceSchema, AgentSkillVariantSchema, AgentSkillSchema, ListAgentSkillsResponseSchema, ListAgentSkillsQuerySchema, SKILL_SORT_FIELDS } from './agent-skill.js';
export type { AgentSkill, AgentSkillVariant, ListAgentSkillsResponse, ListAgentSkillsQuery } from './agent-skill.js';
export {
  SCHEDULE_METADATA_MAX_KEYS,
  SCHEDULE_MODES,
  ScheduleCreateRequestSchema,
  ScheduleUpdateRequestSchema,
  ScheduledAgentHistorySchema,
  ScheduledAgentItemSchema,
  ListSchedulesResponseSchema,
  ScheduleDeleteResponseSchema,
} from './schedule.js';
export type { ScheduleCreateRequest, ScheduleUpdateRequest, ScheduledAgentItem, ListSchedulesResponse, ScheduleDeleteResponse } from './schedule.js';
export {
  AGENT_TYPES,
  CreateAgentIdentityRequestSchema,
  UpdateAgentIdentityRequestSchema,
  AgentIdentitySchema,
  ListAgentIdentitiesResponseSchema,
  ListAgentIdentitiesQuerySchema,
} from './agent-identity.js';
export type {
  CreateAgentIdentityRequest,
  UpdateAgentIdentityRequest,
  AgentIdentity,
  ListAgentIdentitiesResponse,
  ListAgentIdentitiesQuery,
} from './agent-identity.js';
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
} from './artifact-item.js';
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
} from './artifact-item.js';
export { RequestUsageSchema, InferenceUsageSchema, UsageByCategorySchema } from './request-usage.js';
export type { RequestUsage } from './request-usage.js';
export {
  SessionCheckRedirectResponseSchema,
  ConversationCheckRedirectResponseSchema,
} from './redirects.js';
export type { SessionCheckRedirectResponse, ConversationCheckRedirectResponse } from './redirects.js';
export { ErrorBodySchema, errorCodeOf } from './error-body.js';
export type { ErrorBody } from './error-body.js';
export {
  formatIssues,
  issuePath,
  validationIssues,
  describeIssues,
  nameIssues,
  type ValidationIssue,
  type IssueNames,
} from './format-issues.js';
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
} from './artifact-response.js';
export {
  MAX_FOLLOWUP_MESSAGE_CHARS,
  RunFollowupRequestSchema,
  RunFollowupResponseSchema,
  type RunFollowupRequest,
  type RunFollowupResponse,
} from './followup.js';
export {
  ConversationResponseSchema,
  ConversationStepSchema,
  ConversationMessageSchema,
  ConversationContentBlockSchema,
  type ConversationResponse,
  type ConversationStep,
  type ConversationMessage,
  type ConversationContentBlock,
} from './conversation.js';
export { HandoffAttachmentsResponseSchema, type HandoffAttachmentsResponse } from './handoff-attachments.js';
export {
  RunOutputStreamSchema,
  RunOutputDataSchema,
  RunSkippedDataSchema,
  RunOutputChunkSchema,
  RunOutputPageSchema,
  RUN_EVENT_SCHEMAS,
} from './run-events.js';
export type { RunOutputData, RunSkippedData, RunOutputChunk, RunOutputPage, RunEventName } from './run-events.js';
export { PROMPT_MAX_CHARS, TITLE_MAX_CHARS, REQUEST_BODY_MAX_BYTES } from './request-limits.js';

// Server-only.
export { ERROR_CODE_STATUS, ERROR_TYPE_BASE } from './error-codes.js';
export type { ErrorCode } from './error-codes.js';
export { CALLER_SOURCE_HEADER, CLAIMABLE_SOURCES, sourceFromHeader } from './caller-source.js';
export { checkRequestOrigin, hostsForName, loopbackHosts } from './request-origin-guard.js';
export type { OriginGuardHeaders, OriginGuardOptions, OriginRejection } from './request-origin-guard.js';
export { singleLineText, multiLineText } from './control-characters.js';
