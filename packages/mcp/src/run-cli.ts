import {
  AgentRunsClient,
  ClientConfigError,
  ENV,
  isLoopbackHost,
  missingApiKeyProblem,
  type Logger,
} from '@agent-runs/core';
import { parseCommand, UsageError, type CliOptions } from './config/cli-options.js';
import { helpText } from './config/help-text.js';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from './context.js';
import { RunWatcher } from './resources/run-watcher.js';
import { TaskRegistry } from './tasks/task-registry.js';
import { VERSION } from './version.js';

const PROG = 'agent-runs-mcp';

function warn(line: string): void {
  process.stderr.write(`${PROG}: ${line}\n`);
}

/** Everything to stderr: in stdio mode stdout carries the protocol and nothing else. */
const stderrLogger: Logger = {
  debug: (m, ...rest) => console.error(m, ...rest),
  info: (m, ...rest) => console.error(m, ...rest),
  warn: (m, ...rest) => console.error(m, ...rest),
  error: (m, ...rest) => console.error(m, ...rest),
};

function makeContext(options: CliOptions): ServerContext {
  const client = new AgentRunsClient({
    baseURL: options.baseURL || undefined,
    apiKey: options.apiKey || undefined,
    userAgent: `${PROG}/${VERSION}`,
    logger: stderrLogger,
  });
  // A loopback server (the local one with --no-auth) needs no key, so it gets no warning.
  const noKey = missingApiKeyProblem(client, 'pass --api-key');
  if (noKey) warn(`${noKey} Tool calls will fail until then.`);
  return {
    client,
    tasks: new TaskRegistry(),
    watcher: new RunWatcher(client),
    heartbeatMs: options.heartbeatMs,
    pollIntervalMs: options.pollIntervalMs,
    readOnly: options.readOnly,
    runId: options.runId,
  };
}

// The MCP SDK is loaded only to serve, so that --help and flag mistakes answer sooner.
async function serveStdio(ctx: ServerContext): Promise<void> {
  const [{ serveStdio: serve }, { createMcpServer }, { ListenWatches }, { listenObservingStdio }] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    import('./create-mcp-server.js'),
    import('./resources/listen-watches.js'),
    import('./stdio/listen-observing-stdio.js'),
  ]);
  // 2026-07-28 listen streams hear of their runs through the connection's modern instance.
  let modern: McpServer | undefined;
  const listens = ctx.watcher
    ? new ListenWatches(ctx.watcher, (uri) => void modern?.server.sendResourceUpdated({ uri }).catch(() => {}))
    : undefined;
  // The connection's opening picks its revision (initialize: 2025-11-25; server/discover: 2026-07-28).
  const handle = serve(
    ({ era }) => {
      const server = createMcpServer(ctx, era);
      if (era === 'modern') modern = server;
      return server;
    },
    { transport: listenObservingStdio(listens, ctx.tasks) },
  );
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    // Timers of pending waits and tasks must not keep a process whose host has gone.
    ctx.tasks.close();
    ctx.watcher?.close();
    void Promise.allSettled([handle.close(), ctx.client.close()]).finally(() => process.exit(0));
  };
  process.stdin.once('end', shutdown);
  process.stdin.once('close', shutdown);
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

async function serveOverHttp(ctx: ServerContext, options: CliOptions): Promise<void> {
  const [{ serveHttp }, { createMcpServer }] = await Promise.all([
    import('./http/serve-http.js'),
    import('./create-mcp-server.js'),
  ]);
  const running = await serveHttp({
    host: options.host,
    port: options.port,
    authToken: options.authToken,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    maxSessions: options.maxSessions,
    maxClientStreams: options.maxClientStreams,
    maxSessionStreams: options.maxSessionStreams,
    createServer: (era) => createMcpServer(ctx, era),
    watcher: ctx.watcher,
    tasks: ctx.tasks,
  });
  warn(`serving MCP over Streamable HTTP at ${running.url}${options.authToken ? ' (bearer token required)' : ''}`);
  if (!isLoopbackHost(options.host) && !options.authToken) {
    warn(`${options.host} is reachable from other machines and no --auth-token is set: anyone who reaches it acts with this API key.`);
  }
  const shutdown = () => {
    ctx.tasks.close();
    ctx.watcher?.close();
    void Promise.allSettled([running.close(), ctx.client.close()]).finally(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

/** The `agent-runs-mcp` command; resolves once serving, exits the process on a usage error. */
export async function runCli(argv: string[]): Promise<void> {
  let command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    warn(`${error.message}. Run ${PROG} --help for the options.`);
    process.exit(2);
  }
  if (command.kind === 'help') {
    process.stdout.write(helpText(VERSION));
    return;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const options = command.options;
  if (options.mode === 'stdio') {
    // A stray console.log from any library would corrupt the protocol stream.
    console.log = console.info = console.debug = console.error;
  }
  // One failed call must never take the server down with it.
  process.on('unhandledRejection', (reason) => warn(`unexpected error: ${(reason as Error)?.message ?? String(reason)}`));

  let ctx: ServerContext;
  try {
    ctx = makeContext(options);
  } catch (error) {
    if (!(error instanceof ClientConfigError)) throw error;
    // Named as the user set it: the flag, or the variable it came from.
    const from = options.baseURL !== undefined ? '--base-url' : (ENV.baseURL.find((name) => process.env[name]) ?? '--base-url');
    warn(`${from}: ${error.message}`);
    process.exit(2);
  }
  try {
    if (options.mode === 'stdio') await serveStdio(ctx);
    else await serveOverHttp(ctx, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    warn(
      code === 'EADDRINUSE'
        ? `port ${options.port} is in use: pass another with --port (0 picks a free one).`
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EADDRNOTAVAIL'
          ? `cannot listen on --host ${options.host} (${code}): pass an address of this machine, such as 127.0.0.1.`
          : `could not start: ${(error as Error).message}`,
    );
    process.exit(1);
  }
}
