import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '@agent-runs/core';
import { hostsForName, loopbackHosts, type OriginGuardOptions, type RunStatusMessage } from '@agent-runs/core/contract';
import { generatedApiKey } from './config/generated-api-key.js';
import { resolveOptions, type ResolvedOptions } from './config/resolve-options.js';
import { ServerConfigError } from './domain/server-config-error.js';
import type { RunningServer, ServerOptions } from './config/server-options.js';
import { CommandExecutor } from './executors/command-executor.js';
import { killRecordedGroup } from './executors/process-group.js';
import type { ProcessGroupRecord, RunExecutor } from './executors/run-executor.js';
import { SimulatedExecutor } from './executors/simulated-executor.js';
import { ApiKeyAuth } from './http/api-key-auth.js';
import { handleRequest } from './http/handle-request.js';
import { SessionTokens } from './http/session-access.js';
import { SseHeartbeat } from './http/sse-heartbeat.js';
import { sessionSecret } from './config/session-secret.js';
import { ensurePrivateDir } from './config/private-dir.js';
import type { AppContext } from './http/route.js';
import { Router } from './http/router.js';
import { apiRoutes } from './routes/api-routes.js';
import { MonotonicClock } from './runs/monotonic-clock.js';
import { RunEventLog } from './runs/run-event-log.js';
import { artifactsOf, type ArtifactRecord } from './store/artifact-store.js';
import type { RunRecord } from './store/run-record.js';
import { toRunItem } from './runs/to-run-item.js';
import { RunQueue } from './runs/run-queue.js';
import { RunService } from './runs/run-service.js';
import { lockDataDir } from './store/data-dir-lock.js';
import { loadConfigFile } from './config/config-file.js';
import { EMPTY_CONFIG } from './domain/server-config.js';
import { EnvironmentExecutor } from './executors/environment-executor.js';
import { IdentityService } from './identities/identity-service.js';
import { isTimeZone } from './schedules/cron.js';
import { ScheduleService } from './schedules/schedule-service.js';
import { Scheduler } from './schedules/scheduler.js';
import { EnvironmentRegistry } from './sources/environment-registry.js';
import { RunSourceResolver } from './sources/resolve-run-sources.js';
import { SkillCatalog } from './sources/skill-catalog.js';
import { identityVisible } from './identities/identity-visibility.js';
import { runAttachmentSource } from './store/run-attachments.js';
import { ExecutionJournal } from './runs/execution-journal.js';
import { FollowupService } from './runs/followup-service.js';
import { SignedLinks } from './http/signed-links.js';
import { openStorage } from './store/open-storage.js';
import type { Storage } from './store/storage.js';
import { ClusterNode } from './runs/cluster-node.js';
import { NO_PEERS } from './runs/peers.js';

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

function makeExecutor(
  options: ResolvedOptions,
  environments: EnvironmentRegistry,
  recordProcessGroup: (runId: string, group: ProcessGroupRecord) => void,
): RunExecutor {
  if (options.executor === 'command') {
    const command = new CommandExecutor({ command: options.command!, workRoot: options.workDir, timeoutMs: options.commandTimeoutMs, agentEnv: options.agentEnv });
    return new EnvironmentExecutor(command, environments, options.workDir, options.commandTimeoutMs, options.agentEnv, recordProcessGroup);
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
  const config = opts.configFile ? loadConfigFile(opts.configFile) : EMPTY_CONFIG;
  const timeZone = opts.scheduleTimeZone ?? config.scheduleTimeZone ?? 'UTC';
  if (!isTimeZone(timeZone)) throw new ServerConfigError(`scheduleTimeZone must be an IANA time zone such as UTC or Europe/Paris, got "${timeZone}".`);
  let unlock = () => {};
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 }); // Keys, prompts and outputs: this user's only.
    try {
      unlock = lockDataDir(opts.dataDir);
    } catch (error) {
      throw new ServerConfigError((error as Error).message);
    }
  }
  // Names this server on the runs it claims, and in the message when it dies with runs in flight.
  const serverId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  let storage: Storage;
  try {
    storage = await openStorage({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir, serverId, log: opts.log });
  } catch (error) {
    unlock();
    throw error;
  }
  // Whatever fails from here on, the storage opened above is closed (a pool left open would
  // keep the process alive) and the data directory unlocked.
  const serve = async (): Promise<RunningServer> => {
    const store = storage.runs;
    const cluster = storage.cluster;
    const clock = new MonotonicClock();
    if (!cluster) {
      // Alone on its database: whatever was in flight belonged to the last server here. (On a
      // shared database those runs may be other servers' work; their leases tell instead.)
      const leftovers = await store.processGroups(IN_FLIGHT);
      const killed = leftovers.filter((group) => killRecordedGroup(group)).length;
      if (killed > 0) opts.log(`Killed ${killed} agent process group(s) left running by the last server.`);
      const failed = await store.failAll(IN_FLIGHT, RESTARTED, clock.now());
      if (failed > 0) opts.log(`Marked ${failed} run(s) that were in progress at the last stop as FAILED.`);
    }

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

    // Every server of a shared database signs links with the same keys, so any of them opens them.
    const sessionTokens = new SessionTokens(cluster ? await cluster.secrets.get('session-links') : sessionSecret(opts.dataDir));
    const links = new SignedLinks(opts.downloadLinkTtlMs, cluster ? await cluster.secrets.get('download-links') : undefined);
    const node = cluster ? new ClusterNode(cluster, serverId, opts.leaseMs, clock, opts.log) : undefined;
    const peers = node ?? NO_PEERS;
    if (opts.executor === 'command' && options.workDir === undefined) ensurePrivateDir(opts.workDir);
    const environments = new EnvironmentRegistry(config);
    const skillCache = opts.dataDir ? join(opts.dataDir, 'skill-repos') : mkdtempSync(join(tmpdir(), 'agent-runs-skills-'));
    const skills = new SkillCatalog(config, skillCache, opts.log);
    const identityStore = storage.identities;
    const sources = new RunSourceResolver(environments, skills, identityStore, (identity, principal) =>
      identityVisible(identity, principal, opts.sharedRuns),
    );
    const executor = makeExecutor(opts, environments, (runId, group) => {
      store.setProcessGroup(runId, group).catch((error: unknown) => opts.log(`Could not record the process group of run ${runId}: ${(error as Error).message}`));
    });
    const { artifacts, conversations } = storage;
    const limits = {
      maxFileBytes: opts.maxArtifactBytes,
      maxRunBytes: opts.maxRunArtifactBytes,
      maxArtifactsPerExecution: opts.maxArtifactsPerExecution,
    };
    let publicUrl = opts.publicUrl ?? '';
    let originGuard: OriginGuardOptions = { allowedHosts: [] };
    const sessionLink = (run: { sessionId: string }) => sessionTokens.link(publicUrl, run.sessionId);
    const runItem = async (run: RunRecord, known?: readonly ArtifactRecord[]) =>
      toRunItem(run, sessionLink(run), known ?? (await artifactsOf(artifacts, run)));
    const events = new RunEventLog(storage.events, runItem, opts.outputLimitBytes, opts.log);
    const journal = new ExecutionJournal(store, conversations, artifacts, runAttachmentSource(store), limits, clock, events);
    const queue = new RunQueue({
      store,
      executor,
      clock,
      concurrency: opts.concurrency,
      log: opts.log,
      journal,
      events,
      owner: { id: serverId, leaseMs: opts.leaseMs },
      peers,
    });
    const runs = new RunService(store, queue, executor, clock, events, sources, opts.sharedRuns, peers);
    const followups = new FollowupService(store, runs, conversations, queue, journal, executor, clock, events, peers);
    const schedules = new ScheduleService(storage.schedules, runs, sources, environments, timeZone, opts.clock, opts.log, opts.sharedRuns);
    const scheduler = new Scheduler(schedules, opts.schedulerIntervalMs, opts.log);
    const app: AppContext = {
      store,
      runs,
      events,
      heartbeat: new SseHeartbeat(opts.heartbeatMs),
      auth: new ApiKeyAuth(keys, !opts.noAuth),
      publicUrl: () => publicUrl,
      maxBodyBytes: opts.maxBodyBytes,
      artifacts,
      conversations,
      followups,
      links,
      workRoot: opts.workDir,
      schedules,
      identities: new IdentityService(identityStore, sources, environments, opts.clock, opts.sharedRuns),
      environments,
      skills,
      activity: storage.activity,
      originGuard: () => originGuard,
      sessionTokens,
      sessionLink,
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

    const address = await listen(server, opts.port, opts.host);
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
    // Runs left QUEUED (by the last server here, or by any server of a shared database).
    queue.pump();
    node?.start({ queue, events, followups });
    scheduler.start();
    // Skills are looked for now (cloning the environments' repositories) rather than on the first create that names one.
    void skills.variants().catch(() => {});
    if (!isLoopbackHost(opts.host) && opts.allowedHosts.length === 0 && !opts.publicUrl) {
      opts.log(`Bound to ${opts.host}: requests are answered only when addressed to a loopback name; name the others with --allowed-host (or --public-url).`);
    }
    opts.log(`Agent Runs API listening on ${url}/api/v1 (${executor.name} executor, ${storage.description}${cluster ? `, server ${serverId}` : ''})`);

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await scheduler.stop();
        await node?.stop();
        // Answers in flight are given a moment, while the agents are stopped; then lingering
        // connections are cut. Shutdown takes the agents' kill grace and about a second more.
        const cut = setTimeout(() => server.closeAllConnections(), 1000);
        await queue.stop(STOPPED);
        // Streams get the runs' last events, then end, so they do not hold the close up.
        await events.closeAll();
        await stopped;
        clearTimeout(cut);
        await storage.close();
        if (!opts.dataDir) rmSync(skillCache, { recursive: true, force: true });
        unlock();
      })());
    return { url, baseURL: `${url}/api/v1`, apiKey, close };
  };
  try {
    return await serve();
  } catch (error) {
    await storage.close().catch(() => undefined);
    unlock();
    throw error;
  }
}
