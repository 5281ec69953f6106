import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { V1Job, V1Pod, V1Secret } from '@kubernetes/client-node';
import { ProcessTree } from '../../src/executors/process-tree.js';

/**
 * A scripted stand-in for the Kubernetes API on loopback, for the worker's Job backend: no
 * cluster runs in these tests. It serves the few batch/v1 Jobs and core/v1 Pods endpoints
 * the worker calls through the real `@kubernetes/client-node` (create, list by label
 * selector, read, patch and delete Jobs; list pods by label selector), and "schedules" a Job by
 * running its pod's command as a real local process with the pod's environment (its
 * `envFrom` and `secretKeyRef` resolved from the Secrets a test puts in `secrets`; each
 * `emptyDir` volume a temporary directory of its own, named in the variables that name its
 * mount path, and removed when the pod's process ends, as a pod's goes with it; each `secret`
 * volume a directory of one file per key). A script
 * says, per Job, to run it or to report what a cluster would instead: an unschedulable pod,
 * an image that cannot be pulled, an OOM kill. A Job past its `activeDeadlineSeconds` is
 * failed as the Job controller does (`FailureTarget`, the pod's SIGTERM, then `Failed`, reason
 * DeadlineExceeded). A pod ends as a container does: SIGTERM to its first process alone (a
 * delete, the deadline), then, after its grace period or once that process exits, SIGKILL to
 * every process it started, whatever their group or session (its PID namespace's end, which
 * the stand-in follows through /proc). A Job made with `spec.suspend` gets no pod
 * (and its script is not asked) until a patch sets `suspend: false`.
 */
export type PodScript = 'run' | 'unschedulable' | 'image-pull' | 'oom';

interface StoredJob {
  job: V1Job;
  /** None while the Job is suspended. */
  pod?: V1Pod;
  child?: ChildProcess;
  /** Every process the pod's first one started: what its PID namespace would hold. */
  tree?: ProcessTree;
  /** The environment the "kubelet" started the pod's process with, its Secrets' references resolved. */
  env?: NodeJS.ProcessEnv;
  /** The Job's deadline, then its pod's grace period once it passed. */
  deadline?: NodeJS.Timeout;
  /** Each `emptyDir` volume's mount path, and the temporary directory that stands for it while the pod runs; `''`, the one holding its Secret volumes. */
  volumes?: Record<string, string>;
}

/** A Secret create the stand-in holds (`holdSecretCreates`) until the test says. */
export interface HeldSecretCreate {
  name: string;
  /** Serves it as if it had just come. */
  release(): void;
  /** Drops it unserved: the connection is cut, nothing is made. */
  drop(): void;
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
  /** A pod's terminationGracePeriodSeconds: how long a pod past its Job's deadline has after its SIGTERM. */
  terminationGraceMs = 2_000;
  /** The namespace's Secrets by name (their data, decoded): what the "kubelet" resolves `envFrom` and `secretKeyRef` from. */
  readonly secrets = new Map<string, Record<string, string>>();
  /** The Secrets made through the API, as they were sent (their owner references too), by name. */
  readonly secretObjects = new Map<string, V1Secret>();
  /** The name of every Secret made through the API, and of every one deleted (by a call, or with its owner Job), in order. */
  readonly secretsCreated: string[] = [];
  readonly secretsDeleted: string[] = [];
  /** The Job each Secret was last said to be owned by (its ownerReferences), by the Secret's name; kept after a delete. */
  readonly secretOwners = new Map<string, string>();
  /** While set, every Secret create waits in `heldSecretCreates` until released or dropped. */
  holdSecretCreates = false;
  readonly heldSecretCreates: HeldSecretCreate[] = [];
  private heldWaiters: (() => void)[] = [];
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

  /** Resolves once `count` Secret creates are held. */
  async secretCreatesHeld(count: number): Promise<HeldSecretCreate[]> {
    while (this.heldSecretCreates.length < count) await new Promise<void>((resolve) => this.heldWaiters.push(resolve));
    return this.heldSecretCreates.slice(0, count);
  }

  /** Whether the pod's process of a run's Job still runs. */
  running(runId: string): boolean {
    const child = this.jobOf(runId)?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  async close(): Promise<void> {
    for (const stored of this.jobs.values()) this.endPod(stored);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** The kubelet's stop: SIGTERM to the container's first process alone, whatever else runs in it; the rest goes after the pod's grace period. */
  private terminate(stored: StoredJob): void {
    const child = stored.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    clearTimeout(stored.deadline);
    stored.deadline = setTimeout(() => this.endPod(stored), this.terminationGraceMs);
    stored.deadline.unref();
  }

  /** The container's end: SIGKILL to every process of the pod, in whichever group or session it put itself. */
  private endPod(stored: StoredJob): void {
    clearTimeout(stored.deadline);
    stored.child?.kill('SIGKILL');
    stored.tree?.killAll();
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
    const parsed: unknown = text ? JSON.parse(text) : {};
    const body = parsed as Record<string, unknown>;
    const jobs = /^\/apis\/batch\/v1\/namespaces\/([^/]+)\/jobs(?:\/([^/]+))?$/.exec(url.pathname);
    const pods = /^\/api\/v1\/namespaces\/([^/]+)\/pods$/.exec(url.pathname);
    const secrets = /^\/api\/v1\/namespaces\/([^/]+)\/secrets(?:\/([^/]+))?$/.exec(url.pathname);
    if (secrets && !secrets[2] && req.method === 'POST' && this.holdSecretCreates) {
      const name = (body as V1Secret).metadata?.name ?? '';
      this.heldSecretCreates.push({
        name,
        release: () => {
          // Its client may be gone (a worker killed meanwhile): the Secret is made all the same, as an API server would.
          res.on('error', () => undefined);
          this.handleSecret('POST', undefined, body as V1Secret, send, status);
        },
        drop: () => res.destroy(),
      });
      for (const wake of this.heldWaiters.splice(0)) wake();
      return;
    }
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
        const stored = this.store(namespace, job);
        this.jobs.set(key(jobName), stored);
        this.created.push(jobName);
        return send(201, stored.job);
      }
      if (!name && req.method === 'GET') return send(200, { apiVersion: 'batch/v1', kind: 'JobList', metadata: {}, items: this.inNamespace(namespace, selector).map((s) => s.job) });
      const stored = name ? this.jobs.get(key(name)) : undefined;
      if (!stored) return status(404, 'NotFound', `jobs.batch "${name}" not found`);
      if (req.method === 'GET') return send(200, stored.job);
      if (req.method === 'PATCH') return this.patchJob(stored, req.headers['content-type'], parsed, send, status);
      if (req.method === 'DELETE') {
        const propagationPolicy = url.searchParams.get('propagationPolicy') ?? (body['propagationPolicy'] as string | undefined);
        this.deletions.push({ name: name!, propagationPolicy });
        this.terminate(stored);
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
        .flatMap((s) => (s.pod ? [s.pod] : []))
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
      const owner = body.metadata?.ownerReferences?.find((o) => o.kind === 'Job');
      if (owner) this.secretOwners.set(secretName, owner.name);
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

  /** A Job made: scheduled at once, or (suspended) kept without a pod until a patch resumes it. */
  private store(namespace: string, input: V1Job): StoredJob {
    const now = new Date().toISOString();
    const job: V1Job = { ...input, metadata: { ...input.metadata, namespace, uid: randomBytes(8).toString('hex'), creationTimestamp: now as never }, status: {} };
    const stored: StoredJob = { job };
    if (job.spec?.suspend) job.status = { conditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', lastTransitionTime: now as never }] };
    else this.schedule(stored);
    return stored;
  }

  /**
   * A patch of a Job, as the API server takes one: a JSON patch (`replace`/`add` of a field),
   * else a merge patch. `suspend` set false on a suspended Job schedules its pod; set true on
   * a Job with a pod, it is refused here (the worker never does it).
   */
  private patchJob(stored: StoredJob, type: string | undefined, body: unknown, send: (status: number, body: unknown) => void, status: (code: number, reason: string, message: string) => void): void {
    const next = structuredClone(stored.job);
    if (type?.startsWith('application/json-patch+json')) {
      if (!Array.isArray(body)) return status(400, 'BadRequest', 'a JSON patch is a list of operations');
      for (const op of body as { op: string; path: string; value: unknown }[]) {
        const keys = op.path.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
        const last = keys.pop();
        let at: Record<string, unknown> | undefined = next as unknown as Record<string, unknown>;
        for (const k of keys) at = at?.[k] as Record<string, unknown> | undefined;
        if ((op.op !== 'replace' && op.op !== 'add') || !at || last === undefined || (op.op === 'replace' && !(last in at))) return status(422, 'Invalid', `the stand-in cannot apply ${op.op} ${op.path}`);
        at[last] = op.value;
      }
    } else if (type?.startsWith('application/merge-patch+json')) {
      const spec = (body as { spec?: Record<string, unknown> }).spec;
      if (spec) Object.assign(next.spec!, spec);
    } else return status(415, 'UnsupportedMediaType', `the stand-in does not take a patch as ${type}`);
    const resumed = stored.job.spec?.suspend === true && next.spec?.suspend !== true;
    if (next.spec?.suspend === true && stored.pod) return status(422, 'Invalid', 'the stand-in does not suspend a Job that has a pod');
    stored.job.spec = next.spec!;
    stored.job.metadata = next.metadata!;
    if (resumed) {
      stored.job.status = {};
      this.schedule(stored);
    }
    send(200, stored.job);
  }

  /** The "kubelet": the pod made from the Job's template, and what the script says happens to it. */
  private schedule(stored: StoredJob): void {
    const now = new Date().toISOString();
    const { job } = stored;
    const input = job;
    const namespace = job.metadata!.namespace!;
    const name = input.metadata!.name!;
    // The deadline counts from here: a suspended Job's timer starts when it is resumed.
    job.status = { active: 1, startTime: now as never };
    const container = input.spec!.template.spec!.containers[0]!;
    const pod: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${name}-${randomBytes(3).toString('hex')}`, namespace, labels: { ...input.spec!.template.metadata?.labels, 'job-name': name } },
      spec: input.spec!.template.spec!,
      status: { phase: 'Pending' },
    };
    stored.pod = pod;
    const script = this.script(input);
    if (script === 'unschedulable') {
      pod.status!.conditions = [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient memory.' }];
      return;
    }
    if (script === 'image-pull') {
      pod.status!.containerStatuses = [
        { name: container.name, image: container.image!, imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${container.image}"` } } },
      ];
      return;
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
      return;
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
    // Each Secret volume as a kubelet writes one: its files in a timestamped directory, `..data` linking to it, and
    // a link per key. Under a temporary directory standing for the pod's filesystem, so that a variable naming the
    // mount, a path in it or a directory above it finds it. A Secret that is not there leaves an optional volume
    // empty, and keeps the container of any other from being made.
    const secretVolumes = new Map((input.spec!.template.spec!.volumes ?? []).flatMap((v) => (v.secret ? [[v.name, v.secret] as const] : [])));
    const secretMounts = (container.volumeMounts ?? []).filter((mount) => secretVolumes.has(mount.name));
    const podRoot = secretMounts.length ? mkdtempSync(join(tmpdir(), 'scripted-kubernetes-pod-')) : undefined;
    for (const mount of secretMounts) {
      const source = secretVolumes.get(mount.name)!;
      const data = this.secrets.get(source.secretName!);
      if (!data && !source.optional) {
        rmSync(podRoot!, { recursive: true, force: true });
        for (const dir of Object.values(volumes)) rmSync(dir, { recursive: true, force: true });
        pod.status!.containerStatuses = [{ name: container.name, image: container.image!, imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }];
        return;
      }
      const dir = join(podRoot!, mount.mountPath);
      const stamp = '..2026_01_01_00_00_00.000000001';
      mkdirSync(join(dir, stamp), { recursive: true });
      symlinkSync(stamp, join(dir, '..data'));
      for (const [key, value] of Object.entries(data ?? {})) {
        writeFileSync(join(dir, stamp, key), value, { mode: source.defaultMode ?? 0o644 });
        symlinkSync(join('..data', key), join(dir, key));
      }
    }
    if (podRoot) {
      for (const [variable, value] of Object.entries(env)) {
        if (!value?.startsWith('/')) continue;
        if (secretMounts.some(({ mountPath }) => mountPath === value || value.startsWith(`${mountPath}/`) || mountPath.startsWith(`${value.replace(/\/+$/, '')}/`))) env[variable] = join(podRoot, value);
      }
      volumes[''] = podRoot;
    }
    // A container's HOME is its image's, not the node's: what runs in the pod (an agent's login
    // shell) reads no dotfile of the machine the tests run on, which may hang or differ per machine.
    if (env['HOME'] === process.env['HOME']) {
      env['HOME'] = mkdtempSync(join(tmpdir(), 'scripted-kubernetes-home-'));
      volumes['~'] = env['HOME'];
    }
    stored.volumes = volumes;
    const [command, ...args] = [...(container.command ?? []), ...(container.args ?? [])];
    const child = spawn(command!, args, { env, stdio: 'ignore', detached: true });
    stored.child = child;
    if (child.pid !== undefined) stored.tree = ProcessTree.watch(child.pid);
    stored.env = env;
    pod.status = { phase: 'Running', containerStatuses: [{ name: container.name, image: container.image!, imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: now as never } } }] };
    let oomKilled = false;
    if (script === 'oom') {
      setTimeout(() => {
        oomKilled = true;
        this.endPod(stored);
      }, this.oomAfterMs).unref();
    }
    const deadline = input.spec!.activeDeadlineSeconds;
    let pastDeadline = false;
    if (deadline) {
      // As the Job controller of Kubernetes 1.31 and later: FailureTarget first, the pod terminated (SIGTERM to the
      // container's first process, what is left killed after the grace period), Failed once the pod has ended.
      stored.deadline = setTimeout(() => {
        pastDeadline = true;
        job.status = { ...job.status, conditions: [{ type: 'FailureTarget', status: 'True', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline', lastTransitionTime: new Date().toISOString() as never }] };
        this.terminate(stored);
      }, deadline * 1000);
      stored.deadline.unref();
    }
    child.once('exit', (code, signal) => {
      // The container's first process gone, the container goes, and all it held with it.
      this.endPod(stored);
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
          : { ...(job.status?.startTime ? { startTime: job.status.startTime } : {}), failed: 1, conditions: [...(job.status?.conditions ?? []), { type: 'Failed', status: 'True', reason: pastDeadline ? 'DeadlineExceeded' : 'BackoffLimitExceeded', lastTransitionTime: ended }] };
    });
    return;
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
