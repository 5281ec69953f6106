import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvironmentRegistry } from '../catalog/environment-registry.js';
import { loadConfigFile } from '../config/config-file.js';
import { ensurePrivateDir } from '../config/private-dir.js';
import { resolveOptions, type ResolvedOptions } from '../config/resolve-options.js';
import { EMPTY_CONFIG } from '../domain/server-config.js';
import { wireExecutor } from '../start/wire-executor.js';
import type { ServerConfig } from '../domain/server-config.js';
import { ServerConfigError } from '../domain/server-config-error.js';
import type { RunExecutor } from '../executors/run-executor.js';
import { connectCluster } from './kubernetes/cluster-api.js';
import { JobRelay } from './kubernetes/job-relay.js';
import { KubernetesBackend } from './kubernetes/kubernetes-backend.js';
import { PollLoop, type ReattachedRun } from './poll-loop.js';
import { WorkerConnection } from './worker-connection.js';
import type { KubernetesBackendOptions as KubernetesBackendFlags, WorkerOptions } from './worker-flags.js';
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

/** What runs the agents: processes of this machine, or Kubernetes Jobs. */
interface Backend {
  executor: RunExecutor;
  harnesses: string[];
  environments: string[];
  /** Whether runs leave working directories here. */
  workDirs: boolean;
  reattach?: () => Promise<ReattachedRun[]>;
  close?: () => void;
}

/** The server's own executor chain, from this machine's flags and configuration file. */
function processBackend(resolved: ResolvedOptions, config: ServerConfig): Backend {
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

/** `--backend kubernetes`: a Job per execution, reporting to the listener started here. */
async function startKubernetesBackend(options: WorkerOptions, k8s: KubernetesBackendFlags, config: ServerConfig, log: (line: string) => void): Promise<Backend> {
  const settings = config.kubernetes;
  if (!settings) throw new ServerConfigError(`--backend kubernetes: the configuration file ${options.executor.configFile ?? ''} has no kubernetes: section (at least kubernetes.image).`);
  const everywhere = k8s.jobListen.host === '0.0.0.0' || k8s.jobListen.host === '::';
  if (everywhere && !k8s.jobUrl) throw new ServerConfigError(`--job-url is required when --job-listen is on every address (${k8s.jobListen.host}): the URL the Jobs' pods reach this worker at.`);
  const api = connectCluster(settings.namespace);
  const relay = new JobRelay(options.token);
  const bound = await relay.listen(k8s.jobListen);
  const relayUrl = k8s.jobUrl ?? `http://${bound.host.includes(':') ? `[${bound.host}]` : bound.host}:${bound.port}`;
  log(`Runs are Kubernetes Jobs in namespace ${api.namespace}; their pods report to ${relayUrl}.`);
  const executor = new KubernetesBackend({
    api,
    relay,
    relayUrl,
    settings,
    workerToken: options.token,
    workerHost: options.workerHost,
    instanceId: options.instanceId,
    command: options.executor.command!,
    unschedulableTimeoutMs: k8s.unschedulableTimeoutMs,
    log,
  });
  return { executor, harnesses: [], environments: [], workDirs: false, reattach: () => executor.reattach(), close: () => relay.close() };
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
  const backend = options.kubernetes ? await startKubernetesBackend(options, options.kubernetes, config, log) : processBackend(resolved, config);
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
