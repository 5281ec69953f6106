export { startServer } from './start-server.js';
export type { ApiKey, RunningServer, ServerOptions } from './config/server-options.js';
export { ServerConfigError, DEFAULT_DATA_DIR } from './config/resolve-options.js';
export { COMMAND_ENV } from './executors/command-env.js';
export { parseSimulateDirective, SIMULATE_HINT, type SimulateDirective, type SimulatedOutcome } from './executors/simulate-directive.js';
export { SqliteRunStore } from './store/sqlite-run-store.js';
export type { RunStore, RunListQuery, RunListPage } from './store/run-store.js';
export type { NewRun, RunRecord } from './store/run-record.js';
export { parseServerArgs, SERVER_ENV, SERVER_HELP, DEFAULT_CLI_PORT, type ParsedServerArgs } from './config/parse-server-args.js';
