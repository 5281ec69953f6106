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
export { RunAgentRequestSchema } from './run-agent-request.js';
export type { RunAgentRequest } from './run-agent-request.js';
export { RunAgentResponseSchema } from './run-agent-response.js';
export type { RunAgentResponse } from './run-agent-response.js';
export { RunStatusMessageSchema, RunCreatorInfoSchema, RequestUsageSchema, RunItemSchema } from './run-item.js';
export type { RunStatusMessage, RunCreatorInfo, RunItem } from './run-item.js';
export {
  PageInfoSchema,
  ListRunsResponseSchema,
  ListRunsQuerySchema,
  LIST_SORT_FIELDS,
  LIST_SORT_ORDERS,
  LIST_LIMIT_MAX,
  LIST_LIMIT_DEFAULT,
} from './list-runs.js';
export type { PageInfo, ListRunsResponse, ParsedListRunsQuery, ListRunsQuery } from './list-runs.js';
export { ErrorBodySchema, errorCodeOf } from './error-body.js';
export type { ErrorBody } from './error-body.js';
export { formatIssues, issuePath } from './format-issues.js';
export { PROMPT_MAX_CHARS, TITLE_MAX_CHARS, REQUEST_BODY_MAX_BYTES } from './request-limits.js';

// Server-only.
export { ERROR_CODE_STATUS, ERROR_TYPE_BASE } from './error-codes.js';
export type { ErrorCode } from './error-codes.js';
export { CALLER_SOURCE_HEADER, CLAIMABLE_SOURCES, sourceFromHeader } from './caller-source.js';
export { checkRequestOrigin, hostsForName, loopbackHosts } from './request-origin-guard.js';
export type { OriginGuardHeaders, OriginGuardOptions, OriginRejection } from './request-origin-guard.js';
export { singleLineText, multiLineText } from './control-characters.js';
