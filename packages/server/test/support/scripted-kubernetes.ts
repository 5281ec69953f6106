import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { V1Job, V1Pod, V1Secret } from '@kubernetes/client-node';

/**
 * A scripted stand-in for the Kubernetes API on loopback, for the worker's Job backend: no
 * cluster runs in these tests. It serves the few batch/v1 Jobs and core/v1 Pods endpoints
 * the worker calls through the real `@kubernetes/client-node` (create, list by label
 * selector, read and delete Jobs; list pods by label selector), and "schedules" a Job by
 * running its pod's command as a real local process with the pod's environment (its
 * `envFrom` and `secretKeyRef` resolved from the Secrets a test puts in `secrets`; each
 * `emptyDir` volume a temporary directory of its own, named in the variables that name its
 * mount path, and removed when the pod's process ends, as a pod's goes with it). A script
 * says, per Job, to run it or to report what a cluster would instead: an unschedulable pod,
 * an image that cannot be pulled, an OOM kill.
 */
export type PodScript = 'run' | 'unschedulable' | 'image-pull' | 'oom';

interface StoredJob {
  job: V1Job;
  pod: V1Pod;
  child?: ChildProcess;
  /** The environment the "kubelet" started the pod's process with, its Secrets' references resolved. */
  env?: NodeJS.ProcessEnv;
  deadline?: NodeJS.Timeout;
  /** Each `emptyDir` volume's mount path, and the temporary directory that stands for it while the pod runs. */
  volumes?: Record<string, string>;
}

/** What the stand-in was asked, for the tests' assertions. */
export interface StandInRequest {
  method: string;
  path: string;
  /** When it came in (epoch ms): the bench tells the stand-in's own time from the worker's by it. */
  at: number;
}

const BEARER = 'scripted-kubernetes-token';

export class ScriptedKubernetes {
  readonly jobs = new Map<string, StoredJob>();
  /** The name of every Job ever created, in order. */
  readonly created: string[] = [];
  /** Every delete, with its propagation policy. */
  readonly deletions: { name: string; propagationPolicy: string | undefined }[] = [];
  readonly requests: StandInRequest[] = [];
  /** What happens to each created Job's pod; `run` unless told otherwise. */
  script: (job: V1Job) => PodScript = () => 'run';
  /** How long an `oom` pod runs before the "kernel" kills it. */
  oomAfterMs = 300;
  /** The namespace's Secrets by name (their data, decoded): what the "kubelet" resolves `envFrom` and `secretKeyRef` from. */
  readonly secrets = new Map<string, Record<string, string>>();
  /** The Secrets made through the API, as they were sent (their owner references too), by name. */
  readonly secretObjects = new Map<string, V1Secret>();
  /** The name of every Secret made through the API, and of every one deleted (by a call, or with its owner Job), in order. */
  readonly secretsCreated: string[] = [];
  readonly secretsDeleted: string[] = [];
  /** The Job each Secret was last said to be owned by (its ownerReferences), by the Secret's name; kept after a delete. */
  readonly secretOwners = new Map<string, string>();
  /** The bearer token of the kubeconfig it writes, for a test that calls it as a client. */
  static readonly bearer = 'scripted-kubernetes-token';

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ScriptedKubernetes> {
    let standIn: ScriptedKubernetes | undefined;
    const server = createServer((req, res) => void standIn!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    standIn = new ScriptedKubernetes(server, `http://127.0.0.1:${port}`);
    return standIn;
  }

  /** A kubeconfig pointing at the stand-in, written in `dir`; its path. */
  writeKubeconfig(dir: string, namespace = 'agent-runs-test'): string {
    const file = join(dir, 'kubeconfig.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        // The client speaks plain http only with this set; the stand-in has no TLS to verify.
        `- name: stand-in\n  cluster:\n    server: ${this.url}\n    insecure-skip-tls-verify: true`,
        'users:',
        `- name: tester\n  user:\n    token: ${BEARER}`,
        'contexts:',
        `- name: stand-in\n  context:\n    cluster: stand-in\n    user: tester\n    namespace: ${namespace}`,
        'current-context: stand-in',
        '',
      ].join('\n'),
    );
    return file;
  }

  /** The Job of a run, if one is there now. */
  jobOf(runId: string): StoredJob | undefined {
    return [...this.jobs.values()].find((j) => j.job.metadata?.labels?.['agent-runs/run-id'] === runId);
  }

  /** Whether the pod's process of a run's Job still runs. */
  running(runId: string): boolean {
    const child = this.jobOf(runId)?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  async close(): Promise<void> {
    for (const stored of this.jobs.values()) this.kill(stored, 'SIGKILL');
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private kill(stored: StoredJob, signal: NodeJS.Signals): void {
    clearTimeout(stored.deadline);
    const pid = stored.child?.pid;
    if (pid === undefined || stored.child!.exitCode !== null || stored.child!.signalCode !== null) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // Gone already.
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? '', path: url.pathname, at: Date.now() });
    const send = (status: number, body: unknown): void => void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const status = (code: number, reason: string, message: string): void => send(code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
    if (req.headers.authorization !== `Bearer ${BEARER}`) return status(401, 'Unauthorized', 'Unauthorized');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const jobs = /^\/apis\/batch\/v1\/namespaces\/([^/]+)\/jobs(?:\/([^/]+))?$/.exec(url.pathname);
    const pods = /^\/api\/v1\/namespaces\/([^/]+)\/pods$/.exec(url.pathname);
    const secrets = /^\/api\/v1\/namespaces\/([^/]+)\/secrets(?:\/([^/]+))?$/.exec(url.pathname);
    if (secrets) return this.handleSecret(req.method ?? '', secrets[2], body as V1Secret, send, status);
    const selector = url.searchParams.get('labelSelector');
    if (jobs) {
      const [, namespace, name] = jobs as unknown as [string, string, string | undefined];
      const key = (n: string) => `${namespace}/${n}`;
      if (!name && req.method === 'POST') {
        const job = body as V1Job;
        const jobName = job.metadata?.name ?? '';
        if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(jobName) || jobName.length > 63) return status(422, 'Invalid', `Job.batch "${jobName}" is invalid: metadata.name`);
        if (this.jobs.has(key(jobName))) return status(409, 'AlreadyExists', `jobs.batch "${jobName}" already exists`);
        const stored = this.schedule(namespace, job);
        this.jobs.set(key(jobName), stored);
        this.created.push(jobName);
        return send(201, stored.job);
      }
      if (!name && req.method === 'GET') return send(200, { apiVersion: 'batch/v1', kind: 'JobList', metadata: {}, items: this.inNamespace(namespace, selector).map((s) => s.job) });
      const stored = name ? this.jobs.get(key(name)) : undefined;
      if (!stored) return status(404, 'NotFound', `jobs.batch "${name}" not found`);
      if (req.method === 'GET') return send(200, stored.job);
      if (req.method === 'DELETE') {
        const propagationPolicy = url.searchParams.get('propagationPolicy') ?? (body['propagationPolicy'] as string | undefined);
        this.deletions.push({ name: name!, propagationPolicy });
        this.kill(stored, 'SIGTERM');
        setTimeout(() => this.kill(stored, 'SIGKILL'), 2_000).unref();
        this.jobs.delete(key(name!));
        // The garbage collector: what the Job owns goes with it.
        for (const [secretName, secret] of this.secretObjects) {
          if (secret.metadata?.ownerReferences?.some((o) => o.kind === 'Job' && o.uid === stored.job.metadata?.uid)) this.removeSecret(secretName);
        }
        return send(200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });
      }
    }
    if (pods && req.method === 'GET') {
      const items = this.inNamespace(pods[1]!, null)
        .map((s) => s.pod)
        .filter((pod) => matches(pod.metadata?.labels ?? {}, selector));
      return send(200, { apiVersion: 'v1', kind: 'PodList', metadata: {}, items });
    }
    status(404, 'NotFound', `the stand-in does not serve ${req.method} ${url.pathname}`);
  }

  /** Secrets of the namespace (one namespace is enough here): create, read, delete. */
  private handleSecret(method: string, name: string | undefined, body: V1Secret, send: (status: number, body: unknown) => void, status: (code: number, reason: string, message: string) => void): void {
    if (!name && method === 'POST') {
      const secretName = body.metadata?.name ?? '';
      if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(secretName) || secretName.length > 253) return status(422, 'Invalid', `Secret "${secretName}" is invalid: metadata.name`);
      if (this.secrets.has(secretName)) return status(409, 'AlreadyExists', `secrets "${secretName}" already exists`);
      const data: Record<string, string> = {};
      for (const [k, v] of Object.entries(body.data ?? {})) data[k] = Buffer.from(v, 'base64').toString('utf8');
      Object.assign(data, body.stringData ?? {});
      this.secrets.set(secretName, data);
      this.secretObjects.set(secretName, body);
      this.secretsCreated.push(secretName);
      return send(201, { ...body, metadata: { ...body.metadata, uid: randomBytes(8).toString('hex') } });
    }
    if (!name) return status(405, 'MethodNotAllowed', `the stand-in does not serve ${method} on secrets`);
    if (!this.secrets.has(name)) return status(404, 'NotFound', `secrets "${name}" not found`);
    if (method === 'GET') return send(200, this.secretObjects.get(name) ?? { apiVersion: 'v1', kind: 'Secret', metadata: { name } });
    if (method === 'PUT') {
      if (body.metadata?.name !== name) return status(400, 'BadRequest', 'the name of the body is not the name of the path');
      const data: Record<string, string> = {};
      for (const [k, v] of Object.entries(body.data ?? {})) data[k] = Buffer.from(v, 'base64').toString('utf8');
      Object.assign(data, body.stringData ?? {});
      this.secrets.set(name, data);
      this.secretObjects.set(name, body);
      const owner = body.metadata?.ownerReferences?.find((o) => o.kind === 'Job');
      if (owner) this.secretOwners.set(name, owner.name);
      return send(200, body);
    }
    if (method === 'DELETE') {
      this.removeSecret(name);
      return send(200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });
    }
    status(405, 'MethodNotAllowed', `the stand-in does not serve ${method} on a secret`);
  }

  private removeSecret(name: string): void {
    this.secrets.delete(name);
    this.secretObjects.delete(name);
    this.secretsDeleted.push(name);
  }

  private inNamespace(namespace: string, selector: string | null): StoredJob[] {
    return [...this.jobs.entries()].filter(([key, s]) => key.startsWith(`${namespace}/`) && matches(s.job.metadata?.labels ?? {}, selector)).map(([, s]) => s);
  }

  /** The "kubelet": the pod made from the Job's template, and what the script says happens to it. */
  private schedule(namespace: string, input: V1Job): StoredJob {
    const now = new Date().toISOString();
    const name = input.metadata!.name!;
    const job: V1Job = { ...input, metadata: { ...input.metadata, namespace, uid: randomBytes(8).toString('hex'), creationTimestamp: now as never }, status: { active: 1 } };
    const container = input.spec!.template.spec!.containers[0]!;
    const pod: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${name}-${randomBytes(3).toString('hex')}`, namespace, labels: { ...input.spec!.template.metadata?.labels, 'job-name': name } },
      spec: input.spec!.template.spec!,
      status: { phase: 'Pending' },
    };
    const stored: StoredJob = { job, pod };
    const script = this.script(input);
    if (script === 'unschedulable') {
      pod.status!.conditions = [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient memory.' }];
      return stored;
    }
    if (script === 'image-pull') {
      pod.status!.containerStatuses = [
        { name: container.name, image: container.image!, imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${container.image}"` } } },
      ];
      return stored;
    }
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'] };
    // As a kubelet: `envFrom` first, `env` over it; a Secret or key that is not there keeps the container from starting.
    const missing: string[] = [];
    for (const from of container.envFrom ?? []) {
      const data = from.secretRef ? this.secrets.get(from.secretRef.name!) : undefined;
      if (from.secretRef && !data) missing.push(`secret "${from.secretRef.name}" not found`);
      Object.assign(env, data);
    }
    for (const { name: variable, value, valueFrom } of container.env ?? []) {
      const ref = valueFrom?.secretKeyRef;
      if (!ref) env[variable] = value ?? '';
      else if (this.secrets.get(ref.name!)?.[ref.key] === undefined) missing.push(`couldn't find key ${ref.key} in Secret ${namespace}/${ref.name}`);
      else env[variable] = this.secrets.get(ref.name!)![ref.key];
    }
    if (missing.length) {
      pod.status!.containerStatuses = [
        { name: container.name, image: container.image!, imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'CreateContainerConfigError', message: missing[0]! } } },
      ];
      return stored;
    }
    // A local process sees no mount: each emptyDir is a temporary directory, put where the variables name its mount path.
    const emptyDirs = new Set((input.spec!.template.spec!.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name));
    const volumes: Record<string, string> = {};
    for (const mount of container.volumeMounts ?? []) {
      if (!emptyDirs.has(mount.name)) continue;
      const dir = mkdtempSync(join(tmpdir(), 'scripted-kubernetes-emptydir-'));
      volumes[mount.mountPath] = dir;
      for (const [variable, value] of Object.entries(env)) {
        if (value === mount.mountPath || value?.startsWith(`${mount.mountPath}/`)) env[variable] = dir + value.slice(mount.mountPath.length);
      }
    }
    stored.volumes = volumes;
    const [command, ...args] = [...(container.command ?? []), ...(container.args ?? [])];
    const child = spawn(command!, args, { env, stdio: 'ignore', detached: true });
    stored.child = child;
    stored.env = env;
    pod.status = { phase: 'Running', containerStatuses: [{ name: container.name, image: container.image!, imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: now as never } } }] };
    let oomKilled = false;
    if (script === 'oom') {
      setTimeout(() => {
        oomKilled = true;
        this.kill(stored, 'SIGKILL');
      }, this.oomAfterMs).unref();
    }
    const deadline = input.spec!.activeDeadlineSeconds;
    let pastDeadline = false;
    if (deadline) {
      stored.deadline = setTimeout(() => {
        pastDeadline = true;
        this.kill(stored, 'SIGKILL');
      }, deadline * 1000);
      stored.deadline.unref();
    }
    child.once('exit', (code, signal) => {
      clearTimeout(stored.deadline);
      for (const dir of Object.values(volumes)) rmSync(dir, { recursive: true, force: true });
      const exitCode = code ?? 128 + (signal === 'SIGKILL' ? 9 : 15);
      const reason = oomKilled ? 'OOMKilled' : exitCode === 0 ? 'Completed' : 'Error';
      pod.status = {
        phase: exitCode === 0 && !pastDeadline ? 'Succeeded' : 'Failed',
        containerStatuses: [{ name: container.name, image: container.image!, imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, reason } } }],
      };
      const ended = new Date().toISOString() as never;
      job.status =
        exitCode === 0 && !pastDeadline
          ? { succeeded: 1, conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: ended }] }
          : { failed: 1, conditions: [{ type: 'Failed', status: 'True', reason: pastDeadline ? 'DeadlineExceeded' : 'BackoffLimitExceeded', lastTransitionTime: ended }] };
    });
    return stored;
  }
}

/** Equality-based label selectors (`a=b,c=d`), what the worker sends. */
function matches(labels: Record<string, string>, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [key, value] = term.split('=');
    return labels[key!.trim()] === value?.trim();
  });
}
