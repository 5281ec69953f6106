import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import type { OriginGuardOptions } from '@agent-runs/core/contract';
import { loadConfigFile } from './config/config-file.js';
import { ensurePrivateDir } from './config/private-dir.js';
import { resolveOptions } from './config/resolve-options.js';
import type { RunningServer, ServerOptions } from './config/server-options.js';
import { checkSecretOwners } from './domain/named-secrets.js';
import { maskedLog } from './domain/secret-mask.js';
import { EMPTY_CONFIG } from './domain/server-config.js';
import { ServerConfigError } from './domain/server-config-error.js';
import { handleRequest } from './http/handle-request.js';
import { Router } from './http/router.js';
import { apiRoutes } from './routes/api-routes.js';
import { MonotonicClock } from './runs/monotonic-clock.js';
import { isTimeZone } from '@agent-runs/core/cron';
import { listen, listeningUrl } from './start/listen.js';
import { originGuardFor, originGuardWarning } from './start/origin-guard.js';
import { recoverAfterRestart } from './start/restart-recovery.js';
import { serverApiKeys } from './start/server-api-keys.js';
import { shutdownOf } from './start/shutdown.js';
import { wireApp } from './start/wire-app.js';
import { lockDataDir } from './store/data-dir-lock.js';
import { openStorage } from './store/open-storage.js';
import type { Storage } from './store/storage.js';
import { syncDeclaredWebhooks } from './webhooks/declared-webhooks.js';

/**
 * Starts the local Runs API. Resolves once it listens:
 * `const { baseURL, apiKey, close } = await startServer({ port: 0, storage: 'memory' })`.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const resolved = resolveOptions(options);
  const config = resolved.configFile ? loadConfigFile(resolved.configFile) : EMPTY_CONFIG;
  const opts = { ...resolved, log: maskedLog(resolved.log, config.secrets.values()) };
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
    const clock = new MonotonicClock();
    // Alone on its database, what was in flight was the last server's; shared, leases tell.
    if (!storage.cluster) await recoverAfterRestart(storage, opts.workDir, clock.now(), opts.leaseMs, opts.log);
    const { apiKey, keys, apiKeyFile, announce } = serverApiKeys(opts.apiKeys, opts.dataDir, opts.noAuth, opts.log);
    if (opts.executor === 'command' && options.workDir === undefined) ensurePrivateDir(opts.workDir);
    checkSecretOwners(config.secrets, keys.map((k) => k.principal));

    let publicUrl = opts.publicUrl ?? '';
    // Agents run on this machine: they reach the server where it listens, not by its public name.
    let agentUrl = '';
    let originGuard: OriginGuardOptions = { allowedHosts: [] };
    // The weights of fair turns, where the turn a queued run takes reads them (a PostgreSQL trigger cannot read the file).
    await storage.runs.setTurnWeights(config.fairTurns?.weights ?? {});
    const wired = await wireApp({ opts, config, timeZone, storage, serverId, clock, keys, publicUrl: () => publicUrl, agentUrl: () => agentUrl, originGuard: () => originGuard });
    // The configuration file's webhooks, created or brought in step (never twice) before anything is sent.
    await syncDeclaredWebhooks(config.webhooks ?? [], { store: storage.webhooks, clock: opts.clock, allowPrivate: opts.allowPrivateWebhooks, principals: keys.map((k) => k.principal), log: opts.log });
    const router = new Router(apiRoutes(wired.executor.name, timeZone));
    const server = createServer({ keepAlive: true }, (req, res) => {
      void handleRequest(router, wired.app, req, res, opts.log);
    });
    server.keepAliveTimeout = 65_000;
    server.on('clientError', (_error, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      else socket.destroy();
    });

    const address = await listen(server, opts.port, opts.host);
    const url = listeningUrl(address);
    publicUrl ||= url;
    agentUrl = url;
    originGuard = originGuardFor(opts.host, address.port, publicUrl, opts.allowedHosts);
    // Runs left QUEUED (by the last server here, or by any server of a shared database).
    wired.queue.pump();
    wired.node?.start({ queue: wired.queue, events: wired.events, followups: wired.followups, messages: wired.app.mailbox, workers: wired.workers });
    wired.workers.start();
    wired.scheduler.start();
    // Alone on its database, no other server holds a webhook delivery: the last one's leases go.
    if (!storage.cluster) await storage.webhooks.releaseLeases();
    wired.webhooks.start();
    // Skills are looked for now (cloning the environments' repositories) rather than on the first create that names one.
    void wired.skills.variants().catch(() => {});
    // Only now that the port is ours: a start that fails (the port in use) prints no key.
    announce();
    const warning = originGuardWarning(opts.host, opts.allowedHosts, opts.publicUrl);
    if (warning) opts.log(warning);
    const cluster = storage.cluster;
    opts.log(`Agent Runs API listening on ${url}/api/v1 (${wired.executor.name} executor, ${storage.description}${cluster ? `, server ${serverId}` : ''})`);
    return { url, baseURL: `${url}/api/v1`, apiKey, apiKeyFile, close: shutdownOf(server, wired, storage, !opts.dataDir, unlock) };
  };
  try {
    return await serve();
  } catch (error) {
    await storage.close().catch(() => undefined);
    unlock();
    throw error;
  }
}
