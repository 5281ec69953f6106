import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { V1Job } from '@kubernetes/client-node';
import { ScriptedKubernetes } from '../../packages/server/test/support/scripted-kubernetes.js';
import { startWorkerProcess, type WorkerProcess } from '../../packages/server/test/support/worker-process.js';
import type { HarnessTestServer } from './harness-test-server.js';

/** The pod's entrypoint, as the image runs it. */
export const ENTRYPOINT = fileURLToPath(new URL('../../packages/server/bin/agent-runs-job-entrypoint.js', import.meta.url));

/** A Job's variables: the plain ones by name, the names of those taken from a Secret, and where each of those is taken from (`secret/key`). */
export function jobEnv(job: V1Job): { plain: Record<string, string>; fromSecrets: string[]; refs: Record<string, string> } {
  const env = job.spec!.template.spec!.containers[0]!.env ?? [];
  const referenced = env.filter((e) => e.valueFrom?.secretKeyRef);
  return {
    plain: Object.fromEntries(env.filter((e) => e.value !== undefined).map((e) => [e.name, e.value!])),
    fromSecrets: referenced.map((e) => e.name),
    refs: Object.fromEntries(referenced.map((e) => [e.name, `${e.valueFrom!.secretKeyRef!.name}/${e.valueFrom!.secretKeyRef!.key}`])),
  };
}

export interface PodWorker {
  cluster: ScriptedKubernetes;
  worker: WorkerProcess;
  /** A directory of the test's own. */
  dir: string;
  /** Each Job the stand-in started a pod for, in order. */
  jobs: V1Job[];
  /** Each Job's own Secret as the pod's "kubelet" found it (its values, decoded), in the order of the Jobs. */
  runSecrets: (Record<string, string> | undefined)[];
  close(): Promise<void>;
}

export interface PodWorkerOptions {
  server: HarnessTestServer;
  /** The worker token, as the server's `workers:` section names it. */
  token: string;
  workerHost: string;
  /** The worker's `harnesses:` section. */
  harnesses: Record<string, unknown>;
  /** The operator's Secret `model-keys` (its keys and values), made through the cluster's API as kubectl would. */
  modelKeys: Record<string, string>;
  /** The pod's variables from `model-keys`: variable → key. */
  secretEnv: Record<string, string>;
  /** The worker's `environments:` section, prepared in the pods (the server declares their ids alone). */
  environments?: Record<string, unknown> | undefined;
}

/**
 * A harness run's way into a Kubernetes Job's pod: the scripted Kubernetes API on loopback,
 * the operator's Secret of model keys made in it, and an `agent-runs-worker --backend
 * kubernetes` whose pods run the real harness CLI through the entrypoint. Neither the server
 * nor the worker holds a key: the keys reach the pods by reference only.
 */
export async function startPodWorker(o: PodWorkerOptions): Promise<PodWorker> {
  const cluster = await ScriptedKubernetes.start();
  const jobs: V1Job[] = [];
  const runSecrets: (Record<string, string> | undefined)[] = [];
  cluster.script = (job) => {
    jobs.push(job);
    runSecrets.push(cluster.secrets.get(`${job.metadata!.name}-run`));
    return 'run';
  };
  const made = await fetch(`${cluster.url}/api/v1/namespaces/agent-runs-test/secrets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ScriptedKubernetes.bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'model-keys' },
      data: Object.fromEntries(Object.entries(o.modelKeys).map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
    }),
  });
  if (made.status !== 201) throw new Error(`the stand-in did not make the model-keys Secret: ${made.status}`);
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-harness-pod-'));
  const config = join(dir, 'worker.json');
  writeFileSync(
    config,
    JSON.stringify({
      harnesses: o.harnesses,
      ...(o.environments ? { environments: o.environments } : {}),
      kubernetes: {
        image: 'registry.example/agent:1',
        entrypoint: [process.execPath, ENTRYPOINT],
        secret_env: Object.fromEntries(Object.entries(o.secretEnv).map(([variable, key]) => [variable, { secret: 'model-keys', key }])),
      },
    }),
  );
  // The worker holds no key of its own: what the pods get comes from the Secret alone.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'AGENT_RUNS_WORKER_TOKEN' && !(name in o.secretEnv)));
  const worker = await startWorkerProcess(
    ['--server', o.server.server.url, '--worker-host', o.workerHost, '--backend', 'kubernetes', '--config', config, '--command', 'false', '--job-listen', '127.0.0.1:0', '--instance-id', `${o.workerHost}-0`, '--concurrency', '2'],
    o.token,
    { ...env, KUBECONFIG: cluster.writeKubeconfig(dir) },
  );
  return {
    cluster,
    worker,
    dir,
    jobs,
    runSecrets,
    async close() {
      if (worker.child.exitCode === null) {
        worker.child.kill('SIGKILL');
        await worker.exited;
      }
      await cluster.close();
    },
  };
}
