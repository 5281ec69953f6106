import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { validateManifest } from './kubernetes-schemas.js';
import { loadConfigFile } from '../../packages/server/src/config/config-file.js';
import { durationFrom } from '../../packages/server/src/config/flag-values.js';
import { parseServerArgs, SERVER_ENV } from '../../packages/server/src/config/parse-server-args.js';
import { parseWorkerArgs, WORKER_ENV } from '../../packages/server/src/worker-process/worker-flags.js';
import { listenForProbes } from '../../packages/server/src/worker-process/worker-listener.js';
import { WorkerMetrics } from '../../packages/server/src/worker-process/worker-metrics.js';

// deploy/kubernetes: the server, the workers with the Job backend, their RBAC. No cluster
// runs here: the manifests are read and held to what the programs they start really do.
const dir = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url));

type Doc = Record<string, any>;
const files = readdirSync(dir).filter((name) => name.endsWith('.yaml'));
const docs: (Doc & { file: string })[] = files.flatMap((file) =>
  parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return { ...(doc.toJS() as Doc), file };
  }),
);
const objects = docs.filter((d) => d.kind !== 'Kustomization');
// The optional pieces a kustomize Component adds (autoscaling/): validated with the rest, kept out of the base.
const componentDir = join(dir, 'autoscaling');
const componentDocs: (Doc & { file: string })[] = readdirSync(componentDir)
  .filter((name) => name.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(readFileSync(join(componentDir, file), 'utf8')).map((doc) => ({ ...(doc.toJS() as Doc), file: `autoscaling/${file}` })));
const kustomize = (d: Doc) => d.apiVersion?.startsWith('kustomize.config.k8s.io/');
const one = (kind: string, name: string) => {
  const found = objects.filter((d) => d.kind === kind && d.metadata?.name === name);
  expect(found, `${kind}/${name}`).toHaveLength(1);
  return found[0]!;
};
const envOf = (container: Doc) => new Map<string, Doc>((container.env ?? []).map((e: Doc) => [e.name, e]));

describe('deploy/kubernetes', () => {
  it('is YAML kustomize applies whole: every object named, every file listed', () => {
    for (const d of objects) {
      expect(d.apiVersion, d.file).toEqual(expect.any(String));
      expect(d.metadata?.name, d.file).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    }
    const kustomization = docs.find((d) => d.kind === 'Kustomization')!;
    expect([...kustomization.resources].sort()).toEqual(files.filter((f) => f !== 'kustomization.yaml').sort());
    expect(kustomization.namespace).toBe('agent-runs');
  });

  it('gives the worker a termination grace longer than its drain, and a preStop that drains it', () => {
    const pod = one('Deployment', 'agent-runs-worker').spec.template.spec;
    const worker = pod.containers[0];
    const drainMs = durationFrom('drain', envOf(worker).get(WORKER_ENV.drainTimeout)?.value) ?? 10 * 60_000;
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drainMs);
    const preStop = worker.lifecycle.preStop.exec.command.join(' ');
    // SIGTERM is the worker's drain; the hook returns once the worker exited.
    expect(preStop).toContain('kill -TERM 1');
    expect(preStop).toMatch(/while kill -0 1/);
  });

  it('probes the worker where its listener answers: /readyz for readiness, on the port --listen binds', async () => {
    const worker = one('Deployment', 'agent-runs-worker').spec.template.spec.containers[0];
    const listen = envOf(worker).get(WORKER_ENV.listen)!.value as string;
    const port = (name: string | number) => (typeof name === 'number' ? name : worker.ports.find((p: Doc) => p.name === name).containerPort);
    expect(port(worker.readinessProbe.httpGet.port)).toBe(Number(listen.split(':')[1]));
    expect(port(worker.livenessProbe.httpGet.port)).toBe(Number(listen.split(':')[1]));
    expect(worker.readinessProbe.httpGet.path).toBe('/readyz');
    // The worker's own listener answers both paths (404 would mean a probe at a route that is not there).
    const probes = await listenForProbes({ host: '127.0.0.1', port: 0 }, () => true, new WorkerMetrics());
    try {
      for (const path of [worker.readinessProbe.httpGet.path, worker.livenessProbe.httpGet.path]) expect((await fetch(`${probes.url}${path}`)).status, path).toBe(200);
      expect((await fetch(`${probes.url}/healthz`)).status).toBe(404);
    } finally {
      probes.server.close();
    }
  });

  it('limits the worker to Jobs, their pods and its runs\' token Secrets in its own namespace, with the verbs its client calls', () => {
    expect(objects.filter((d) => d.kind === 'ClusterRole' || d.kind === 'ClusterRoleBinding')).toEqual([]);
    const role = one('Role', 'agent-runs-worker');
    const rules = role.rules.map((r: Doc) => ({ groups: r.apiGroups, resources: r.resources, verbs: [...r.verbs].sort() }));
    expect(rules).toEqual([
      // createNamespacedJob (suspended), readNamespacedJob, listNamespacedJob (reattach), patchNamespacedJob (resumed once its Secret is made), deleteNamespacedJob (cancel, done).
      { groups: ['batch'], resources: ['jobs'], verbs: ['create', 'delete', 'get', 'list', 'patch'] },
      // listNamespacedPod: why a pod does not run.
      { groups: [''], resources: ['pods'], verbs: ['list'] },
      // createNamespacedSecret (owned by its Job from its making), replaceNamespacedSecret (one an earlier try left), deleteNamespacedSecret: each execution's own Secret. Never get or list: the operator's Secrets are not read.
      { groups: [''], resources: ['secrets'], verbs: ['create', 'delete', 'update'] },
    ]);
    const binding = one('RoleBinding', 'agent-runs-worker');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'agent-runs-worker' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'agent-runs-worker' }]);
    one('ServiceAccount', 'agent-runs-worker');
    expect(one('Deployment', 'agent-runs-worker').spec.template.spec.serviceAccountName).toBe('agent-runs-worker');
    // The server needs no access to the cluster at all.
    expect(one('Deployment', 'agent-runs-server').spec.template.spec.automountServiceAccountToken).toBe(false);
  });

  it("starts the worker with settings its own parsers take: --backend kubernetes, the Job URL on the pod's IP, its configuration file", () => {
    const worker = one('Deployment', 'agent-runs-worker').spec.template.spec.containers[0];
    const env = envOf(worker);
    const config = one('ConfigMap', 'agent-runs-worker').data['worker.yaml'] as string;
    const configFile = join(mkdtempSync(join(tmpdir(), 'k8s-manifests-')), 'worker.yaml');
    writeFileSync(configFile, config);
    expect(loadConfigFile(configFile).kubernetes?.image).toEqual(expect.any(String));
    const plain: Record<string, string> = { [WORKER_ENV.token]: 'a-worker-token-for-this-test', [WORKER_ENV.instanceId]: 'agent-runs-worker-5d9c-x2' };
    for (const [name, e] of env) if (e.value !== undefined) plain[name] = String(e.value).replace('$(POD_IP)', '10.1.2.3');
    plain[WORKER_ENV.configFile] = configFile;
    for (const name of env.keys()) expect(name === 'POD_IP' || (Object.values(WORKER_ENV) as string[]).includes(name), name).toBe(true);
    const parsed = parseWorkerArgs([], plain);
    if (parsed.help) throw new Error('help');
    expect(parsed.options.backend).toBe('kubernetes');
    expect(parsed.options.kubernetes?.jobUrl).toBe('http://10.1.2.3:9466');
    expect(env.get('POD_IP')!.valueFrom.fieldRef.fieldPath).toBe('status.podIP');
    expect(env.get(WORKER_ENV.instanceId)!.valueFrom.fieldRef.fieldPath).toBe('metadata.name');
    expect(env.get(WORKER_ENV.token)!.valueFrom.secretKeyRef).toEqual({ name: 'agent-runs-worker', key: 'token' });
  });

  it('gives the server its PostgreSQL URL from a Secret and a Service that selects its pods', () => {
    const deployment = one('Deployment', 'agent-runs-server');
    const server = deployment.spec.template.spec.containers[0];
    const env = envOf(server);
    expect(env.get(SERVER_ENV.databaseUrl)!.valueFrom.secretKeyRef).toEqual({ name: 'agent-runs-database', key: 'url' });
    expect(env.get(SERVER_ENV.apiKeys)!.valueFrom.secretKeyRef.name).toEqual(expect.any(String));
    for (const name of env.keys()) expect(name === 'AGENT_RUNS_KUBE_WORKER_TOKEN' || (Object.values(SERVER_ENV) as string[]).includes(name), name).toBe(true);
    // The server's own parser takes what the Deployment sets.
    const plain: Record<string, string> = { [SERVER_ENV.databaseUrl]: 'postgres://agent_runs:pw@db.internal:5432/agent_runs', [SERVER_ENV.apiKeys]: 'ci=a-long-random-key-0123456789' };
    for (const [name, e] of env) if (e.value !== undefined) plain[name] = String(e.value);
    const parsed = parseServerArgs([], plain);
    if (parsed.help) throw new Error('help');
    expect(parsed.options).toMatchObject({ workersOnly: true, host: '0.0.0.0', port: 4280 });
    const service = one('Service', 'agent-runs-server');
    expect(deployment.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(server.ports.map((p: Doc) => p.name)).toContain(service.spec.ports[0].targetPort);
    expect(server.readinessProbe.httpGet.path).toBe('/healthz');
    // The server's configuration file takes the worker token from the variable the Deployment sets.
    const configFile = join(mkdtempSync(join(tmpdir(), 'k8s-manifests-')), 'agent-runs.yaml');
    writeFileSync(configFile, one('ConfigMap', 'agent-runs-server').data['agent-runs.yaml']);
    const loaded = loadConfigFile(configFile, { AGENT_RUNS_KUBE_WORKER_TOKEN: 'x'.repeat(32) });
    const workerHost = envOf(one('Deployment', 'agent-runs-worker').spec.template.spec.containers[0]).get(WORKER_ENV.workerHost)!.value;
    expect(loaded.workerTokens?.[0]?.workerHosts).toEqual([workerHost]);
  });

  it('validates every document against the Kubernetes API schemas (kubernetes-models; KEDA\'s for the autoscaler)', async () => {
    const all = [...objects, ...componentDocs.filter((d) => !kustomize(d))];
    expect(all.map((d) => d.kind)).toContain('ScaledObject');
    for (const d of all) {
      const { file, ...manifest } = d;
      await expect(validateManifest(manifest), `${file}: ${d.kind}/${d.metadata?.name}`).resolves.toBeUndefined();
    }
  });

  it('refuses a document the schemas do not allow: a port named where a number goes, a pod with no containers, a kind it has no schema for', async () => {
    const bare = (d: Doc): Doc => {
      const { file: _file, ...manifest } = structuredClone(d);
      return manifest;
    };
    const worker = bare(one('Deployment', 'agent-runs-worker'));
    worker.spec.template.spec.containers[0].ports[0].containerPort = 'probes';
    await expect(validateManifest(worker)).rejects.toThrow(/containerPort must be integer/);
    const empty = bare(one('Deployment', 'agent-runs-server'));
    delete empty.spec.template.spec.containers;
    await expect(validateManifest(empty)).rejects.toThrow(/containers/);
    const scaled = bare(componentDocs.find((d) => d.kind === 'ScaledObject')!);
    delete scaled.spec.scaleTargetRef;
    await expect(validateManifest(scaled)).rejects.toThrow(/scaleTargetRef/);
    await expect(validateManifest({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).rejects.toThrow(/no schema for example.com\/v1 Widget/);
  });

  it('scales the workers with KEDA on the queue of their worker_host, by their concurrency, as an optional kustomize component', () => {
    const component = componentDocs.find((d) => d.kind === 'Component')!;
    expect([...component.resources].sort()).toEqual(componentDocs.filter((d) => !kustomize(d)).map((d) => d.file.replace('autoscaling/', '')).sort());
    // Optional: the base does not pull it in.
    const base = docs.find((d) => d.kind === 'Kustomization')!;
    expect(base.components ?? []).not.toContain('autoscaling');
    const scaled = componentDocs.find((d) => d.kind === 'ScaledObject')!;
    const deployment = one('Deployment', 'agent-runs-worker');
    expect(scaled.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: deployment.metadata.name });
    const env = envOf(deployment.spec.template.spec.containers[0]);
    const trigger = scaled.spec.triggers[0];
    expect(trigger.type).toBe('prometheus');
    const host = env.get(WORKER_ENV.workerHost)!.value;
    expect(trigger.metadata.query).toContain(`agent_runs_queued_runs{worker_host="${host}"}`);
    expect(trigger.metadata.query).toContain(`agent_runs_runs_in_flight{worker_host="${host}"}`);
    // One replica per the runs one worker takes at once.
    expect(trigger.metadata.threshold).toBe(String(env.get(WORKER_ENV.concurrency)!.value));
    expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
  });
});
