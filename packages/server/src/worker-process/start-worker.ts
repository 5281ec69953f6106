import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvironmentRegistry } from '../catalog/environment-registry.js';
import { loadConfigFile } from '../config/config-file.js';
import { ensurePrivateDir } from '../config/private-dir.js';
import { resolveOptions, type ResolvedOptions } from '../config/resolve-options.js';
import { EMPTY_CONFIG, type ServerConfig } from '../domain/server-config.js';
import { wireExecutor } from '../start/wire-executor.js';
import { PollLoop } from './poll-loop.js';
import type { WorkerBackend } from './worker-backend.js';
import { WorkerConnection } from './worker-connection.js';
import type { WorkerOptions } from './worker-flags.js';
import { listenForProbes } from './worker-listener.js';
import { workerLog } from './worker-log.js';
import { WorkDirKeeper } from './work-dir-keeper.js';
import { WorkerMetrics } from './worker-metrics.js';

export interface RunningWorker {
  /** `--listen`'s address once bound (`http://host:port`), else undefined. */
  probesUrl: string | undefined;
  /** Takes no new run; the held ones get `--drain-timeout` to finish, then are stopped. */
  drain(): void;
  /** Stops every held run now (each finishes FAILED, saying the worker shut down), and drains. */
  stopNow(): void;
  /** Resolves once drained: no run held, nothing more to send. */
  done: Promise<void>;
}

/** The server's own executor chain, from this machine's flags and configuration file. */
function processBackend(resolved: ResolvedOptions, config: ServerConfig): WorkerBackend {
  const environments = new EnvironmentRegistry(config);
  // A worker records no process group: it keeps no store, and a run it loses is ended by the server.
  const { executor, harnessSetup } = wireExecutor({ opts: resolved, config, environments, principals: [], recordProcessGroup: () => {} });
  return {
    executor,
    harnesses: harnessSetup.names().filter((name) => harnessSetup.command(name) !== undefined),
    environments: config.environments.map((env) => env.id),
    workDirs: true,
  };
}

/** The default parent of run working directories: per user and worker host, outside any data directory. */
function defaultWorkDir(workerHost: string): string {
  const owner = `${process.getuid?.() ?? 'user'}:worker:${workerHost}`;
  return join(tmpdir(), `agent-runs-worker-${createHash('sha256').update(owner).digest('hex').slice(0, 12)}`);
}

/**
 * Starts a self-hosted worker: the executor built as the server builds its own, from this
 * machine's flags and configuration file (its environments, secrets and harness keys), and
 * the loop that takes runs from the server. Throws ServerConfigError on bad options.
 */
export async function startWorker(options: WorkerOptions, write?: (line: string) => void): Promise<RunningWorker> {
  const config = options.executor.configFile ? loadConfigFile(options.executor.configFile) : EMPTY_CONFIG;
  const log = workerLog(options.quiet, [...config.secrets.values(), options.token], write);
  const resolved = resolveOptions({ ...options.executor, storage: 'memory', workDir: options.executor.workDir ?? defaultWorkDir(options.workerHost), log });
  if (options.executor.workDir === undefined) ensurePrivateDir(resolved.workDir);
  const metrics = new WorkerMetrics();
  // Loaded only for its backend: the Kubernetes client takes a second of a small machine's start.
  const backend = options.kubernetes
    ? await (await import('./kubernetes/start-kubernetes-backend.js')).startKubernetesBackend(options, options.kubernetes, config, log)
    : options.dispatch
      ? await (await import('./dispatch/start-dispatch-backend.js')).startDispatchBackend(options, options.dispatch, config, resolved.workDir, log)
      : processBackend(resolved, config);
  const loop = new PollLoop({
    connection: new WorkerConnection(options.servers, options.token),
    executor: backend.executor,
    metrics,
    log,
    ...(backend.workDirs ? { workDirs: new WorkDirKeeper(resolved.workDir, options.keepWorkDirs, log) } : {}),
    ...(backend.reattach ? { reattach: backend.reattach } : {}),
    announce: {
      worker_host: options.workerHost,
      instance_id: options.instanceId,
      capacity: options.concurrency,
      harnesses: backend.harnesses,
      environments: backend.environments,
    },
  });
  let probes: { server: Server; url: string } | undefined;
  if (options.listen) {
    probes = await listenForProbes(options.listen, () => loop.ready, metrics);
    log(`Serving /readyz and /metrics at ${probes.url}`);
  }
  let drainTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  const stopNow = () => {
    if (stopping) return;
    stopping = true;
    loop.drain();
    if (loop.held) log(`Stopping ${loop.held} run(s) now.`);
    void loop.shutdownRuns();
  };
  const done = loop.run().finally(() => {
    clearTimeout(drainTimer);
    backend.close?.();
    probes?.server.close();
    probes?.server.closeAllConnections();
  });
  return {
    probesUrl: probes?.url,
    drain() {
      if (drainTimer || stopping) return;
      log(`Draining: taking no new run; ${loop.held} run(s) get up to ${options.drainTimeoutMs} ms to finish.`);
      loop.drain();
      drainTimer = setTimeout(() => {
        log('The drain timeout passed.');
        stopNow();
      }, options.drainTimeoutMs);
      drainTimer.unref();
    },
    stopNow,
    done,
  };
}
