/**
 * `@agent-runs/core/contract`: the wire contract for servers that implement the API.
 * Everything a client needs is also exported from the main entry; what only a server
 * needs (how a caller's source is read, the error-code status table) is exported here alone.
 * Each file's exports are all public, so each is re-exported whole.
 */
export * from './run-state.js';
export * from './run-source-type.js';
export * from './mcp-server-config.js';
export * from './ambient-agent-config.js';
export * from './run-budget.js';
export * from './run-agent-request.js';
export * from './run-agent-response.js';
export * from './run-item.js';
export * from './list-runs.js';
export * from './page-query.js';
export * from './user-profile.js';
export * from './run-mode.js';
export * from './cloud-environment.js';
export * from './list-models.js';
export * from './agent-skill.js';
export * from './schedule.js';
export * from './agent-identity.js';
export * from './artifact-item.js';
export * from './request-usage.js';
export * from './redirects.js';
// Named: parseErrorBody is the client's own reading of a body.
export { ErrorBodySchema, errorCodeOf, type ErrorBody } from './error-body.js';
export * from './format-issues.js';
export * from './defined-only.js';
export * from './artifact-response.js';
export * from './followup.js';
export * from './agent-message.js';
export * from './agent-event.js';
export * from './conversation.js';
export * from './handoff-attachments.js';
export * from './run-event-schemas.js';
export * from './request-limits.js';
export * from './connected-worker.js';
export * from './principal-quota.js';

// Server-only.
export * from './error-codes.js';
export * from './caller-source.js';
export * from './request-origin-guard.js';
export * from './control-characters.js';

// Rules a server applies the way the clients do, named here so that a server never loads the client.
export { readDuration, DURATION_HINT, formatElapsed, type DurationReading } from '../format/duration.js';
export { isLoopbackHost } from '../connection/base-url.js';
export { safeFileName } from '../format/safe-file-name.js';
export { VERSION } from '../internal/version.js';
