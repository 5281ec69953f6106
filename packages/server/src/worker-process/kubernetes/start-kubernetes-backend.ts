import type { ServerConfig } from '../../domain/server-config.js';
import { ServerConfigError } from '../../domain/server-config-error.js';
import type { WorkerBackend } from '../worker-backend.js';
import type { KubernetesBackendOptions as KubernetesBackendFlags, WorkerOptions } from '../worker-flags.js';
import { connectCluster } from './cluster-api.js';
import { JobRelay } from './job-relay.js';
import { KubernetesBackend } from './kubernetes-backend.js';
import { BudgetedExecutor } from '../../executors/budgeted-executor.js';
import { MaskedExecutor } from '../../executors/masked-executor.js';
import { SecretMask } from '../../domain/secret-mask.js';
import { runPolicyFor } from '../../config/sandbox-config.js';
import { EnvironmentRegistry } from '../../catalog/environment-registry.js';

/** `--backend kubernetes`: a Job per execution, reporting to the listener started here. */
export async function startKubernetesBackend(options: WorkerOptions, k8s: KubernetesBackendFlags, config: ServerConfig, log: (line: string) => void): Promise<WorkerBackend> {
  const settings = config.kubernetes;
  if (!settings) throw new ServerConfigError(`--backend kubernetes: the configuration file ${options.executor.configFile ?? ''} has no kubernetes: section (at least kubernetes.image).`);
  const everywhere = k8s.jobListen.host === '0.0.0.0' || k8s.jobListen.host === '::';
  if (everywhere && !k8s.jobUrl) throw new ServerConfigError(`--job-url is required when --job-listen is on every address (${k8s.jobListen.host}): the URL the Jobs' pods reach this worker at.`);
  const api = connectCluster(settings.namespace);
  const relay = new JobRelay(options.token);
  const bound = await relay.listen(k8s.jobListen);
  const relayUrl = k8s.jobUrl ?? `http://${bound.host.includes(':') ? `[${bound.host}]` : bound.host}:${bound.port}`;
  log(`Runs are Kubernetes Jobs in namespace ${api.namespace}; their pods report to ${relayUrl}.`);
  const runPolicy = runPolicyFor(config);
  const executor = new KubernetesBackend({
    api,
    relay,
    relayUrl,
    settings,
    workerToken: options.token,
    workerHost: options.workerHost,
    instanceId: options.instanceId,
    command: options.executor.command!,
    harnesses: config.harnesses,
    environments: new EnvironmentRegistry(config),
    secretsOf: (run) => runPolicy(run).env,
    unschedulableTimeoutMs: k8s.unschedulableTimeoutMs,
    log,
  });
  // As on the server: the run's budget held (its usage as the pod's harness reports it; its wall time is the Job's
  // activeDeadlineSeconds), the named secrets masked in what comes back.
  const budgeted = new BudgetedExecutor(executor, Date.now, false);
  // Every environment of the configuration file: its checkout and setup are made in the pod, its secrets go in the run's Secret.
  const environments = config.environments.map((env) => env.id);
  return { executor: new MaskedExecutor(budgeted, new SecretMask(config.secrets.values())), harnesses: [], environments, workDirs: false, reattach: (leaseMs) => executor.reattach(leaseMs), close: () => relay.close() };
}
