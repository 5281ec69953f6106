export * from './contract/index.js';
export * from './errors/index.js';
export { AgentRunsClient, type GenericRequest } from './client/agent-runs-client.js';
export { APIPromise, type ResponseInfo, type WithResponse } from './client/api-promise.js';
export type { ClientOptions, RequestOptions } from './client/options.js';
export type { Logger, LogLevel } from './client/logger.js';
export {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  ENV,
  API_KEY_VARIABLES,
  isLoopbackHost,
} from './client/client-config.js';
export { backoffDelay, retryAfterMs } from './client/retry-timing.js';
export { Runs, type CreateAndWaitOptions } from './resources/runs.js';
export { RunsPage, PagePromise } from './resources/runs-page.js';
export { waitForRun, hasRunChanged } from './wait/wait-for-run.js';
export type { RunStreamEvent, RunEventsOptions } from './resources/run-events.js';
export * from './wait/wait-options.js';
export * from './format/duration.js';
export * from './format/run-summary.js';
export * from './input/mcp-servers-input.js';
export { VERSION } from './version.js';
