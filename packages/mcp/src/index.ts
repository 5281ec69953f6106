export { createMcpServer } from './create-mcp-server.js';
export { DEFAULT_HEARTBEAT_MS, DEFAULT_POLL_INTERVAL_MS, type ServerContext } from './context.js';
export { RECENT_RUNS_URI, RUN_URI_TEMPLATE, runUri } from './resources/index.js';
export { serveHttp, type HttpServeOptions, type RunningHttpServer } from './http/serve-http.js';
export { VERSION } from './version.js';
export { TaskRegistry } from './tasks/task-registry.js';
export type { ProtocolEra } from './create-mcp-server.js';
export { RunWatcher } from './resources/run-watcher.js';
