import type { TestContext } from 'vitest';
import { agentScriptCommand } from './agent-script.js';
import { freePort } from './free-port.js';
import { ScriptedKubernetes } from './scripted-kubernetes.js';
import { tempTree, writeServerConfig } from './server-config.js';
import { killProcesses, type ServerProcess } from './server-process.js';
import { createPoolRun, startPoolServer } from './worker-pool-server.js';
import { JOB_ENTRYPOINT, startWorkerProcess, type WorkerProcess } from './worker-process.js';

/** What differs between the tests of a Kubernetes-backend worker. */
export interface KubernetesWorkerOptions {
  /** The worker pool's token: the server takes it, the workers are given it. */
  token: string;
  /** The server's `--lease`; its default without one. */
  lease?: string | undefined;
  /** More sections of the server's configuration (the environments its runs name). */
  serverSections?: Record<string, unknown> | undefined;
  /** The Node source of the agent a run without a harness runs in its pod; without one, the command is `true` (the runs are the harness's). */
  agentSource?: string | undefined;
  /** More of the worker's `kubernetes` section than its image and the entrypoint. */
  kubernetes?: Record<string, unknown> | undefined;
  /** The worker configuration's other sections (secrets, environments, harnesses). */
  workerSections?: Record<string, unknown> | undefined;
  /** Flags every worker start adds (`--concurrency`). */
  workerArgs?: string[] | undefined;
}

export interface KubernetesWorkerSetup {
  server: ServerProcess;
  cluster: ScriptedKubernetes;
  /** The test's temporary directory, holding the agent and the kubeconfig: for the files a test hands its agent. */
  dir: string;
  /**
   * Starts a worker for the host `kube` (`args`, `env`: more flags and variables; `instance`:
   * its --instance-id, `kube-worker-0` by default). Every start listens for the pods on the
   * same port, as a pod's is: the Jobs' pods keep reporting to the worker restarted after one.
   * `server`: where it reaches the server (a proxy in front of it), the server itself by default.
   */
  startWorker(options?: { args?: string[]; env?: NodeJS.ProcessEnv; instance?: string | undefined; server?: string | undefined }): Promise<WorkerProcess>;
  /** Starts a run on `kube` (`config`: more of its configuration), expecting it accepted; its id. */
  createRun(prompt: string, config?: Record<string, unknown>): Promise<string>;
}

/**
 * A server process, the scripted Kubernetes stand-in, the agent and the worker's
 * configuration, ended with the test, as is every worker it starts (the tests run side by
 * side: each tears down only its own). The stand-in's "kubelet" runs each pod's command (the
 * real entrypoint, then the agent) as a local process.
 */
export async function setUpKubernetesWorker({ expect, onTestFinished }: TestContext, options: KubernetesWorkerOptions): Promise<KubernetesWorkerSetup> {
  const processes: (ServerProcess | WorkerProcess)[] = [];
  let cluster: ScriptedKubernetes | undefined;
  onTestFinished(async () => {
    await killProcesses(processes);
    await cluster?.close();
  });
  const server = await startPoolServer(processes, { token: options.token, workerHost: 'kube', sections: options.serverSections, args: options.lease ? ['--lease', options.lease] : [] });
  cluster = await ScriptedKubernetes.start();
  const dir = tempTree();
  const command = options.agentSource === undefined ? 'true' : agentScriptCommand(dir, options.agentSource);
  const workerConfig = writeServerConfig(
    { kubernetes: { image: 'registry.example/agent:1', entrypoint: [process.execPath, JOB_ENTRYPOINT], ...options.kubernetes }, ...options.workerSections },
    tempTree(),
  );
  const kubeconfig = cluster.writeKubeconfig(dir);
  const jobPort = await freePort();
  const root = server.baseURL.replace(/\/api\/v1$/, '');
  return {
    server,
    cluster,
    dir,
    async startWorker({ args = [], env = {}, instance = 'kube-worker-0', server: via = root } = {}) {
      const worker = await startWorkerProcess(
        [
          '--server', via,
          '--worker-host', 'kube',
          '--backend', 'kubernetes',
          '--config', workerConfig,
          '--command', command,
          '--job-listen', `127.0.0.1:${jobPort}`,
          '--instance-id', instance,
          ...(options.workerArgs ?? []),
          ...args,
        ],
        options.token,
        { ...process.env, KUBECONFIG: kubeconfig, ...env },
      );
      processes.push(worker);
      return worker;
    },
    createRun: (prompt, config) => createPoolRun(expect, server, 'kube', prompt, config),
  };
}
