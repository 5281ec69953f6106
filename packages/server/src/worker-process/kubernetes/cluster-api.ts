import { readFileSync } from 'node:fs';
import { ApiException, BatchV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { ServerConfigError } from '../../domain/server-config-error.js';

/** The two APIs the Job backend uses, and the namespace its Jobs live in. */
export interface ClusterApi {
  batch: BatchV1Api;
  core: CoreV1Api;
  namespace: string;
}

const IN_CLUSTER_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/**
 * The cluster as `kubectl` would find it: KUBECONFIG, else ~/.kube/config, else the pod's
 * service account. The namespace: the configuration file's, else the pod's own, else the
 * kubeconfig context's, else `default`.
 */
export function connectCluster(namespace: string | undefined): ClusterApi {
  const config = new KubeConfig();
  try {
    config.loadFromDefault();
  } catch (error) {
    throw new ServerConfigError(`--backend kubernetes: the kubeconfig (${process.env['KUBECONFIG'] ? 'KUBECONFIG' : '~/.kube/config'}) could not be read: ${(error as Error).message.split('\n')[0]}`);
  }
  let ns = namespace;
  if (!ns) {
    try {
      ns = readFileSync(IN_CLUSTER_NAMESPACE, 'utf8').trim() || undefined;
    } catch {
      ns = undefined;
    }
  }
  ns ??= config.getContextObject(config.getCurrentContext())?.namespace ?? 'default';
  return { batch: config.makeApiClient(BatchV1Api), core: config.makeApiClient(CoreV1Api), namespace: ns };
}

/** The HTTP status of a failed API call, if the cluster answered. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined;
}

/** A failed API call, one line for a log or a status message: the cluster's own message where it gave one, never a credential. */
export function apiProblem(error: unknown): string {
  if (error instanceof ApiException) {
    let message: unknown;
    try {
      message = (typeof error.body === 'string' ? (JSON.parse(error.body) as { message?: unknown }) : (error.body as { message?: unknown } | undefined))?.message;
    } catch {
      message = undefined;
    }
    return `the Kubernetes API answered ${error.code}${typeof message === 'string' ? `: ${message.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`;
  }
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return `the Kubernetes API could not be reached (${cause ?? (error as Error).message?.slice(0, 200) ?? 'unknown error'})`;
}
