import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '@agent-runs/core';
import { hostsForName, loopbackHosts, type OriginGuardOptions, type RunStatusMessage } from '@agent-runs/core/contract';
import { generatedApiKey } from './config/generated-api-key.js';
import { resolveOptions, ServerConfigError, type ResolvedOptions } from './config/resolve-options.js';
import type { RunningServer, ServerOptions } from './config/server-options.js';
import { CommandExecutor } from './executors/command-executor.js';
import { killRecordedGroup } from './executors/process-group.js';
import type { RunExecutor } from './executors/run-executor.js';
import { SimulatedExecutor } from './executors/simulated-executor.js';
import { ApiKeyAuth } from './http/api-key-auth.js';
import { handleRequest } from './http/handle-request.js';
import { SessionTokens } from './http/session-access.js';
import { sessionSecret } from './config/session-secret.js';
import { ensurePrivateDir } from './config/private-dir.js';
import type { AppContext } from './http/route.js';
import { Router } from './http/router.js';
import { apiRoutes } from './routes/api-routes.js';
import { MonotonicClock } from './runs/monotonic-clock.js';
import { RunQueue } from './runs/run-queue.js';
import { RunService } from './runs/run-service.js';
import { lockDataDir } from './store/data-dir-lock.js';
import { openRunStore } from './store/open-run-store.js';
import type { SqliteRunStore } from './store/sqlite-run-store.js';
import { SqliteArtifactStore } from './store/sqlite-artifact-store.js';
import { SqliteConversationStore } from './store/sqlite-conversation-store.js';
import { runAttachmentSource } from './store/run-attachments.js';
import { ExecutionJournal } from './runs/execution-journal.js';
import { FollowupService } from './runs/followup-service.js';
import { SignedLinks } from './http/signed-links.js';

const RESTARTED: RunStatusMessage = {
  message: 'The server restarted while this run was in progress, so its outcome is unknown; start a new run.',
  error_code: 'internal_error',
  retryable: true,
};
const IN_FLIGHT = ['INPROGRESS', 'PENDING', 'CLAIMED'];
const STOPPED: RunStatusMessage = {
  message: 'The server was stopped while this run was in progress; start a new run.',
  error_code: 'internal_error',
  retryable: true,
};

function makeExecutor(options: ResolvedOptions): RunExecutor {
  if (options.executor === 'command') {
    return new CommandExecutor({ command: options.command!, workRoot: options.workDir, timeoutMs: options.commandTimeoutMs, agentEnv: options.agentEnv });
  }
  return new SimulatedExecutor(options.simulatedDurationMs);
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Starts the local Runs API. Resolves once it listens:
 * `const { baseURL, apiKey, close } = await startServer({ port: 0, storage: 'memory' })`.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const opts = resolveOptions(options);
  let unlock = () => {};
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 }); // Keys, prompts and outputs: this user's only.
    try {
      unlock = lockDataDir(opts.dataDir);
    } catch (error) {
      throw new ServerConfigError((error as Error).message);
    }
  }
  let store: SqliteRunStore;
  try {
    store = openRunStore(opts.dataDir ? join(opts.dataDir, 'runs.sqlite') : ':memory:');
  } catch (error) {
    unlock();
    throw error;
  }
  const clock = new MonotonicClock();
  // Agents a killed server left running: their runs are failed below, so they are stopped.
  const leftovers = await store.processGroups(IN_FLIGHT);
  const killed = leftovers.filter((group) => killRecordedGroup(group)).length;
  if (killed > 0) opts.log(`Killed ${killed} agent process group(s) left running by the last server.`);
  const failed = await store.failAll(IN_FLIGHT, RESTARTED, clock.now());
  if (failed > 0) opts.log(`Marked ${failed} run(s) that were in progress at the last stop as FAILED.`);

  let apiKey = opts.apiKeys[0]?.key;
  const keys = [...opts.apiKeys];
  if (!apiKey) {
    const generated = generatedApiKey(opts.dataDir);
    apiKey = generated.key;
    keys.push({ key: apiKey, principal: 'local' });
    if (opts.noAuth) {
      opts.log('Authentication is off (loopback only): any caller may create and cancel runs.');
    } else if (generated.created) {
      opts.log(`No API key configured; generated one${generated.file ? ` (kept in ${generated.file})` : ''}. Use it as the Bearer key:`);
      opts.log(`  ${apiKey}`);
    } else {
      opts.log(`No API key configured; using the generated key kept in ${generated.file}.`);
    }
  }

  const sessionTokens = new SessionTokens(sessionSecret(opts.dataDir));
  if (opts.executor === 'command' && options.workDir === undefined) ensurePrivateDir(opts.workDir);
  const executor = makeExecutor(opts);
  const artifacts = new SqliteArtifactStore(store.db);
  const conversations = new SqliteConversationStore(store.db);
  const limits = {
    maxFileBytes: opts.maxArtifactBytes,
    maxRunBytes: opts.maxRunArtifactBytes,
    maxArtifactsPerExecution: opts.maxArtifactsPerExecution,
  };
  const journal = new ExecutionJournal(store, conversations, artifacts, runAttachmentSource(store), limits, clock);
  const queue = new RunQueue(store, executor, clock, opts.concurrency, opts.log, journal);
  const runs = new RunService(store, queue, executor, clock, opts.sharedRuns);
  const followups = new FollowupService(store, runs, conversations, queue, journal, executor, clock);
  let publicUrl = opts.publicUrl ?? '';
  let originGuard: OriginGuardOptions = { allowedHosts: [] };
  const app: AppContext = {
    store,
    runs,
    auth: new ApiKeyAuth(keys, !opts.noAuth),
    publicUrl: () => publicUrl,
    maxBodyBytes: opts.maxBodyBytes,
    artifacts,
    conversations,
    followups,
    links: new SignedLinks(opts.downloadLinkTtlMs),
    workRoot: opts.workDir,
    originGuard: () => originGuard,
    sessionTokens,
    sessionLink: (run) => sessionTokens.link(publicUrl, run.sessionId),
  };
  const router = new Router(apiRoutes(executor.name));
  const server = createServer({ keepAlive: true }, (req, res) => {
    void handleRequest(router, app, req, res, opts.log);
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  let address: AddressInfo;
  try {
    address = await listen(server, opts.port, opts.host);
  } catch (error) {
    await store.close();
    unlock();
    throw error;
  }
  // Bound to every interface: name the loopback one, which always reaches it from here.
  const reachable = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const hostInUrl = address.family === 'IPv6' ? `[${reachable}]` : reachable;
  const url = `http://${hostInUrl}:${address.port}`;
  publicUrl ||= url;
  originGuard = {
    allowedHosts: [
      ...loopbackHosts(opts.host, address.port),
      ...hostsForName(new URL(publicUrl).host, address.port),
      ...opts.allowedHosts.flatMap((name) => hostsForName(name, address.port)),
    ],
  };
  for (const id of await store.queuedIds()) queue.enqueue(id);
  if (!isLoopbackHost(opts.host) && opts.allowedHosts.length === 0 && !opts.publicUrl) {
    opts.log(`Bound to ${opts.host}: requests are answered only when addressed to a loopback name; name the others with --allowed-host (or --public-url).`);
  }
  opts.log(`Agent Runs API listening on ${url}/api/v1 (${executor.name} executor, ${opts.dataDir ? `data in ${opts.dataDir}` : 'in memory'})`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Answers in flight are given a moment, while the agents are stopped; then lingering
      // connections are cut. Shutdown takes the agents' kill grace and about a second more.
      const cut = setTimeout(() => server.closeAllConnections(), 1000);
      await queue.stop(STOPPED);
      await stopped;
      clearTimeout(cut);
      await store.close();
      unlock();
    })());
  return { url, baseURL: `${url}/api/v1`, apiKey, close };
}
