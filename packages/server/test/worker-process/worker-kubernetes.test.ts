import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Job } from '@kubernetes/client-node';
import { describe, it, type TestContext } from 'vitest';
import { entrypointToken } from '../../src/worker-process/kubernetes/entrypoint-token.js';
import { startChildRunSource } from '../support/child-run-agent.js';
import { eventually } from '../support/eventually.js';
import { setUpKubernetesWorker } from '../support/kubernetes-worker.js';
import { api, ended, outputOf, runOf } from '../support/server-api.js';
import { tempTree } from '../support/server-config.js';
import type { ServerProcess } from '../support/server-process.js';

/**
 * `agent-runs-worker --backend kubernetes` end to end: a real server process, a real worker
 * process, the real @kubernetes/client-node, and the scripted Kubernetes API stand-in on
 * loopback, whose "kubelet" runs each Job's pod command (our entrypoint, then the agent) as
 * a local process. No cluster runs here.
 */

const TOKEN = 'worker-k8s-token-5e0c1a7b93';

/** The agent inside the pod: what AGENT_RUNS_PROMPT says. */
const AGENT_SOURCE = `
const fs = require('fs');
const [mode, arg] = (process.env.AGENT_RUNS_PROMPT || '').trim().split(' ');
if (process.env.AGENT_RUNS_JOB_TOKEN !== undefined) { console.log('the token leaked'); process.exit(9); }
if (mode === 'ok') {
  console.log('line one');
  console.error('a warning');
  setTimeout(() => {
    console.log('line two');
    fs.writeFileSync(process.env.AGENT_RUNS_USAGE_FILE, JSON.stringify({ total_tokens: 42, inference_cost_usd: 0.5 }));
  }, 200);
} else if (mode === 'fail') {
  console.log('about to fail');
  process.exitCode = 3;
} else if (mode === 'hang') {
  setInterval(() => console.log('tick'), 100);
} else if (mode === 'files') {
  // Files in the artifacts directory (and a link, never followed), then waits for the test's go.
  const dir = process.env.AGENT_RUNS_ARTIFACTS_DIR;
  fs.writeFileSync(dir + '/report.md', '# Report\\nall good\\n');
  fs.mkdirSync(dir + '/logs');
  fs.writeFileSync(dir + '/logs/run.log', 'log line\\n');
  fs.symlinkSync('/etc/passwd', dir + '/passwd');
  console.log('files written');
  const wait = setInterval(() => { if (fs.existsSync(arg)) clearInterval(wait); }, 50);
} else if (mode === 'keys') {
  // What the pod's Secrets gave the agent, told without the values.
  console.log('model key ' + (process.env.MODEL_API_KEY === 'sk-model-7f3e91' ? 'given' : 'missing'));
  console.log('bulk key ' + (process.env.OTHER_KEY === 'other-5d2a' ? 'given' : 'missing'));
} else if (mode === 'report') {
  // The report file, as the local command agent writes it: a pull request, a plan, a junk line, the result; and a file.
  const lines = [
    { type: 'PULL_REQUEST', url: 'https://git.example/acme/app/pull/7', branch: 'fix-flaky' },
    { type: 'PLAN', title: 'The plan', content: 'step one' },
    'not json',
    { type: 'RESULT', message: 'Fixed the flaky test.' },
  ];
  fs.writeFileSync(process.env.AGENT_RUNS_REPORT_FILE, lines.map((l) => typeof l === 'string' ? l : JSON.stringify(l)).join('\\n') + '\\n');
  fs.writeFileSync(process.env.AGENT_RUNS_ARTIFACTS_DIR + '/notes.txt', 'noted\\n');
  console.log('reported');
} else if (mode === 'child') {
  // The run's API token, as a process-backend worker gives it: a child run started with it.
${startChildRunSource()}} else if (mode === 'sleep') {
  setTimeout(() => console.log('slept'), Number(arg));
}
`;

/**
 * A stand-in for Claude Code in the pod: it says whether the prompt on its stdin and the MCP
 * config file the harness gave it hold the markers (named, not printed), as its result.
 */
function podClaude(promptMarker: string, headerMarker: string): string {
  const dir = tempTree(
    {
      claude: [
        '#!/bin/sh',
        'prompt=$(cat)',
        'config=',
        'while [ $# -gt 0 ]; do [ "$1" = --mcp-config ] && config="$2"; shift; done',
        `p=missing; case "$prompt" in *${promptMarker}*) p=seen;; esac`,
        `h=missing; grep -q 'Bearer ${headerMarker}' "$config" 2>/dev/null && h=seen`,
        `echo '{"type":"system","subtype":"init","session_id":"pod-session"}'`,
        `echo "{\\"type\\":\\"result\\",\\"subtype\\":\\"success\\",\\"result\\":\\"prompt $p, header $h\\",\\"is_error\\":false}"`,
        '',
      ].join('\n'),
    },
    'agent-runs-pod-claude-',
  );
  chmodSync(join(dir, 'claude'), 0o755);
  return join(dir, 'claude');
}

/** A test's server, stand-in and workers, with this file's agent and Job settings (`kubernetes`, `workerSections`: more of them); each worker runs four runs at once. */
const setUp = (context: TestContext, kubernetes: Record<string, unknown> = {}, workerSections: Record<string, unknown> = {}) =>
  setUpKubernetesWorker(context, {
    token: TOKEN,
    // Long enough for a worker killed and started again to renew before the server gives its
    // runs up, on a machine busy with this file's other tests and a neighbour (15 s ran out once).
    lease: '30s',
    agentSource: AGENT_SOURCE,
    kubernetes: {
      failed_job_ttl_seconds: 600,
      resources: { limits: { memory: '512Mi' } },
      node_selector: { pool: 'agents' },
      runtime_class_name: 'gvisor',
      ...kubernetes,
    },
    workerSections,
    workerArgs: ['--concurrency', '4'],
  });

/** A file artifact's bytes, through its signed download link. */
async function artifactText({ expect }: TestContext, server: ServerProcess, uid: string): Promise<string> {
  const artifact = await api(server, `/agent/artifacts/${uid}`);
  expect(artifact.status).toBe(200);
  const download = await fetch(new URL(artifact.body.data.download_url as string, server.baseURL));
  expect(download.status).toBe(200);
  return download.text();
}

// Each test starts its own server, stand-in and worker, and waits on them far more than it computes: they run side by side
// (vitest's maxConcurrency at a time), their waits bounded for a machine that is busy with a neighbour too.
describe.concurrent('agent-runs-worker --backend kubernetes, against a scripted Kubernetes API', () => {
  it('runs a run as a Job: SUCCEEDED with its output lines and usage on the server, the Job as specified, then deleted', async (context) => {
    const { expect } = context;
    const { cluster, startWorker, createRun, server } = await setUp(context);
    await startWorker();
    const id = await createRun('ok');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const output = await outputOf(server, id);
    expect(output).toContain('line one');
    expect(output).toContain('line two');
    expect(output).toContain('a warning');
    expect(output).not.toContain('the token leaked');
    expect(run.request_usage).toMatchObject({ total_tokens: 42 });
    expect(cluster.created).toHaveLength(1);
    const name = cluster.created[0]!;
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name).toMatch(/^agent-runs-[a-z0-9-]+-1$/);
    // A succeeded Job is deleted by the worker.
    await eventually(() => cluster.deletions.map((d) => d.name), (names) => names.includes(name));
    expect(cluster.jobs.size).toBe(0);
  }, 60_000);

  it('writes the Job spec from the run and the configuration file', async (context) => {
    const { expect } = context;
    const { cluster, startWorker, server } = await setUp(context);
    let seen: any;
    cluster.script = (job) => {
      seen = job;
      return 'run';
    };
    await startWorker();
    const id = await api(server, '/agent/run', { method: 'POST', body: { prompt: 'ok', config: { worker_host: 'kube', budget: { max_duration_seconds: 120 } } } }).then((r) => r.body.run_id as string);
    expect((await ended(server, id, 30_000)).state).toBe('SUCCEEDED');
    expect(seen.metadata.labels).toMatchObject({ 'agent-runs/run-id': id, 'agent-runs/worker-host': 'kube' });
    expect(seen.spec).toMatchObject({ backoffLimit: 0, activeDeadlineSeconds: 120, ttlSecondsAfterFinished: 600 });
    const pod = seen.spec.template.spec;
    expect(pod).toMatchObject({ restartPolicy: 'Never', nodeSelector: { pool: 'agents' }, runtimeClassName: 'gvisor', automountServiceAccountToken: false });
    expect(pod.containers[0]).toMatchObject({ image: 'registry.example/agent:1', resources: { limits: { memory: '512Mi' } } });
    const env = Object.fromEntries(pod.containers[0].env.map((e: { name: string; value: string }) => [e.name, e.value]));
    // Neither the worker's token nor the run's: the pod reports with the run's, from the run's own Secret.
    expect(JSON.stringify(seen)).not.toContain(TOKEN);
    expect(env.AGENT_RUNS_JOB_TOKEN).toBeUndefined();
    const ref = pod.containers[0].env.find((e: { name: string }) => e.name === 'AGENT_RUNS_JOB_TOKEN');
    expect(ref.valueFrom).toEqual({ secretKeyRef: { name: `${seen.metadata.name}-run`, key: 'AGENT_RUNS_JOB_TOKEN' } });
  }, 60_000);

  it('ends a run whose agent exits non-zero FAILED and keeps its Job for its TTL', async (context) => {
    const { expect } = context;
    const { cluster, startWorker, createRun, server } = await setUp(context);
    await startWorker();
    const id = await createRun('fail');
    const run = await ended(server, id, 30_000);
    expect(run.state).toBe('FAILED');
    expect(run.status_message.message).toContain('exited with code 3');
    expect(await outputOf(server, id)).toContain('about to fail');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(cluster.deletions).toEqual([]);
    expect(cluster.jobOf(id)).toBeDefined();
  }, 60_000);

  it('cancel deletes the Job in the foreground and its agent stops', async (context) => {
    const { expect } = context;
    const { cluster, startWorker, createRun, server } = await setUp(context);
    await startWorker();
    const id = await createRun('hang');
    await eventually(() => outputOf(server, id), (output) => output.includes('tick'), 30_000);
    expect(cluster.running(id)).toBe(true);
    const name = cluster.jobOf(id)!.job.metadata!.name!;
    const child = cluster.jobOf(id)!.child!;
    expect((await api(server, `/agent/runs/${id}/cancel`, { method: 'POST' })).status).toBeLessThan(300);
    expect((await ended(server, id)).state).toBe('CANCELLED');
    await eventually(() => cluster.deletions, (d) => d.some((x) => x.name === name && x.propagationPolicy === 'Foreground'));
    await eventually(() => child.exitCode !== null || child.signalCode !== null, (over) => over, 5_000);
  }, 60_000);

  it.for([
    ['unschedulable', /could not be scheduled within 2 s \(Unschedulable\): 0\/3 nodes are available/],
    ['image-pull', /could not pull its image registry\.example\/agent:1 \(ImagePullBackOff\)/],
    ['oom', /ran out of memory: its pod's container was OOMKilled \(memory limit 512Mi\)/],
  ] as const)('a pod that is %s ends the run FAILED, naming the cause', { timeout: 60_000 }, async ([script, message], context) => {
    const { expect } = context;
    const { cluster, startWorker, createRun, server } = await setUp(context);
    cluster.script = () => script;
    await startWorker({ args: ['--unschedulable-timeout', '2s'] });
    const id = await createRun('hang');
    const run = await ended(server, id, 30_000);
    expect(run.state).toBe('FAILED');
    expect(run.status_message.message).toMatch(message);
  });

  it("the run's duration cap is the Job's activeDeadlineSeconds: past it, the run ends BLOCKED as on the server, and a follow-up with a raised cap continues it", async (context) => {
    const { expect } = context;
    const { cluster, startWorker, server } = await setUp(context);
    await startWorker();
    const created = await api(server, '/agent/run', { method: 'POST', body: { prompt: 'hang', config: { worker_host: 'kube', budget: { max_duration_seconds: 2 } } } });
    const id = created.body.run_id;
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('BLOCKED');
    expect(run.status_message).toMatchObject({ error_code: 'budget_exceeded', retryable: false, message: expect.stringMatching(/^stopped at the budget: \d+ s run of max_duration_seconds 2\. A follow-up with a raised agent_config budget/) });
    // Kubernetes stopped it: the Job fails DeadlineExceeded, not deleted by the worker. As on a
    // real cluster, FailureTarget comes first and Failed only once its pod has stopped, which may
    // be after the run has ended.
    const conditions = await eventually(() => cluster.jobOf(id)?.job.status?.conditions ?? [], (all) => all.some((c) => c.type === 'Failed'), 10_000);
    expect(conditions).toContainEqual(expect.objectContaining({ type: 'Failed', reason: 'DeadlineExceeded' }));
    expect(cluster.deletions.map((d) => d.name)).not.toContain(cluster.jobOf(id)!.job.metadata!.name);

    const followup = await api(server, `/agent/runs/${id}/followups`, { method: 'POST', body: { message: 'sleep 200', budget: { max_duration_seconds: 60 } } });
    expect(followup.status, JSON.stringify(followup.body)).toBeLessThan(300);
    // Its second execution, a Job of its own, made with the raised cap as its deadline.
    await eventually(() => cluster.created.length, (n) => n === 2, 30_000);
    expect(cluster.created[1]).toMatch(/-2$/);
    const again = await ended(server, id, 30_000);
    expect(again.state, JSON.stringify(again.status_message)).toBe('SUCCEEDED');
    expect(await outputOf(server, id)).toContain('slept');
  }, 60_000);

  it('a worker killed (-9) while a capped Job runs, restarted after the Job failed at its deadline: the cap it reads back from the Job ends the run BLOCKED', async (context) => {
    const { expect } = context;
    const { cluster, startWorker, server } = await setUp(context);
    const first = await startWorker();
    const created = await api(server, '/agent/run', { method: 'POST', body: { prompt: 'hang', config: { worker_host: 'kube', budget: { max_duration_seconds: 3 } } } });
    const id = created.body.run_id;
    await eventually(() => cluster.running(id), (up) => up, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    // The Job fails while no worker runs: its entrypoint's end has no one to go to, so only the Job tells.
    await eventually(() => cluster.jobOf(id)?.job.status?.conditions ?? [], (conditions) => conditions.some((c) => c.type === 'Failed'), 30_000);
    await startWorker();
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('BLOCKED');
    expect(run.status_message).toMatchObject({ error_code: 'budget_exceeded', message: expect.stringMatching(/^stopped at the budget: \d+ s run of max_duration_seconds 3\. /) });
    expect(cluster.created).toHaveLength(1);
  }, 60_000);

  it('a worker killed while three Jobs run, then restarted, follows all three again: each SUCCEEDS, none is made twice', async (context) => {
    const { expect } = context;
    const { cluster, startWorker, createRun, server } = await setUp(context);
    const first = await startWorker();
    const ids = [await createRun('sleep 4000'), await createRun('sleep 4000'), await createRun('sleep 4000')];
    await eventually(() => ids.map((id) => cluster.running(id)), (up) => up.every(Boolean), 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startWorker();
    const runs = await Promise.all(ids.map((id) => ended(server, id, 30_000)));
    expect(runs.map((r) => r.state)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
    for (const id of ids) expect(await outputOf(server, id)).toContain('slept');
    expect(cluster.created).toHaveLength(3);
    expect(second.stderr()).toMatch(/followed again after a restart/);
  }, 90_000);

  it("hands the files its agent left in AGENT_RUNS_ARTIFACTS_DIR back as the run's artifacts; a hostile path from the pod is refused", async (context) => {
    const { expect } = context;
    const { cluster, startWorker, createRun, server } = await setUp(context);
    const worker = await startWorker();
    const go = join(tempTree(), 'go');
    const id = await createRun(`files ${go}`);
    await eventually(() => outputOf(server, id), (o) => o.includes('files written'), 30_000);
    // What a pod could send of its own: the run's token (from its Secret) and the worker's listener.
    const url = /their pods report to (http:\/\/127\.0\.0\.1:\d+)/.exec(worker.stderr())![1]!;
    const token = cluster.jobOf(id)!.env!['AGENT_RUNS_JOB_TOKEN']!;
    const upload = (path: string) =>
      fetch(`${url}/runs/${id}/files?path=${encodeURIComponent(path)}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: 'evil' });
    for (const hostile of ['../evil', '/etc/evil', 'a/../../evil', 'bell\u0007.txt', 'a\\b', '']) {
      const refused = await upload(hostile);
      expect(refused.status, hostile).toBe(400);
      expect(await refused.text()).toMatch(/^path: /);
    }
    writeFileSync(go, '');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const files = (run.artifacts as { artifact_type: string; data: { filepath: string; artifact_uid: string; mime_type: string } }[]).filter((a) => a.artifact_type === 'FILE');
    expect(files.map((f) => f.data.filepath).sort()).toEqual(['logs/run.log', 'report.md']);
    const report = files.find((f) => f.data.filepath === 'report.md')!;
    expect(report.data.mime_type).toBe('text/markdown');
    expect(await artifactText(context, server, report.data.artifact_uid)).toBe('# Report\nall good\n');
    expect(JSON.stringify(run.artifacts)).not.toContain('evil');
    // The link was not followed, and said so in the run's output.
    expect(JSON.stringify(run.artifacts)).not.toContain('passwd');
    expect(await outputOf(server, id)).toContain('artifact passwd is not a regular file');
  }, 60_000);

  it('reads the report file the pod gives its agent (AGENT_RUNS_REPORT_FILE) as the local executor does: its result, pull request and plan reach the run with its files', async (context) => {
    const { expect } = context;
    const { startWorker, createRun, server } = await setUp(context);
    await startWorker();
    const id = await createRun('report');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(run.status_message?.message).toBe('Fixed the flaky test.');
    const artifacts = run.artifacts as { artifact_type: string; data: Record<string, unknown> }[];
    expect(artifacts.map((a) => a.artifact_type).sort()).toEqual(['FILE', 'PLAN', 'PULL_REQUEST']);
    expect(artifacts.find((a) => a.artifact_type === 'PULL_REQUEST')!.data).toMatchObject({ url: 'https://git.example/acme/app/pull/7', branch: 'fix-flaky' });
    expect(artifacts.find((a) => a.artifact_type === 'FILE')!.data).toMatchObject({ filepath: 'notes.txt' });
    // The reader's note on the line it skipped is in the run's output, as on the server.
    expect(await outputOf(server, id)).toContain('report line 3 is not JSON; skipped.');
  }, 60_000);

  it("gives the pod's agent its run's API token from a Secret of the run's own, owned by its Job and deleted at the end: never in the Job's spec", async (context) => {
    const { expect } = context;
    const { cluster, startWorker, createRun, server } = await setUp(context);
    const seen: { job: V1Job; secret: Record<string, string> | undefined; owner?: string }[] = [];
    cluster.script = (job) => {
      // The pod starts once its Job is resumed, after its Secret was made.
      seen.push({ job, secret: cluster.secrets.get(`${job.metadata!.name}-run`) });
      return 'run';
    };
    await startWorker();
    const id = await createRun('child');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const output = await outputOf(server, id);
    const childId = /child 200 (\S+?)\\n/.exec(output)?.[1];
    expect(childId, output).toBeDefined();
    expect((await api(server, `/agent/runs/${childId}`)).body).toMatchObject({ parent_run_id: id });
    expect(seen).toHaveLength(1);
    const { job, secret } = seen[0]!;
    const token = secret?.['AGENT_RUNS_JOB_API_TOKEN'];
    expect(token).toMatch(/^art_/);
    // The Job's spec names the Secret; the token is in no part of it, nor in the run's output.
    expect(JSON.stringify(job)).not.toContain(token);
    const env = job.spec!.template.spec!.containers[0]!.env!;
    expect(env.find((e) => e.name === 'AGENT_RUNS_JOB_API_TOKEN')!.valueFrom).toEqual({ secretKeyRef: { name: `${job.metadata!.name}-run`, key: 'AGENT_RUNS_JOB_API_TOKEN' } });
    expect(output).toContain('token: ***');
    expect(output).not.toContain(token);
    // Owned by its Job once it was made, and deleted at the run's end.
    const name = `${job.metadata!.name}-run`;
    expect(cluster.secretsCreated).toEqual([name]);
    await eventually(() => cluster.secretsDeleted, (deleted) => deleted.includes(name));
    expect(cluster.secrets.has(name)).toBe(false);
    expect(cluster.secretOwners.get(name)).toBe(job.metadata!.name);
  }, 60_000);

  it("a harness run's prompt and MCP servers' headers reach the pod from the run's own Secret: neither is in the Job's spec", async (context) => {
    const { expect } = context;
    const header = 'mcp-bearer-4b7e2c90d1';
    const marker = 'prompt-marker-9a3f51e6';
    const claude = podClaude(marker, header);
    const { cluster, startWorker, server } = await setUp(context, { secret_env: { ANTHROPIC_API_KEY: { secret: 'model-keys', key: 'anthropic' } } }, { harnesses: { claude: { command: claude } } });
    cluster.secrets.set('model-keys', { anthropic: 'sk-ant-pod-7d21' });
    const seen: { job: V1Job; secret: Record<string, string> | undefined }[] = [];
    cluster.script = (job) => {
      seen.push({ job, secret: cluster.secrets.get(`${job.metadata!.name}-run`) });
      return 'run';
    };
    await startWorker();
    const created = await api(server, '/agent/run', {
      method: 'POST',
      body: {
        prompt: `Look this up: ${marker}`,
        config: {
          worker_host: 'kube',
          harness: { type: 'claude', model_id: 'claude-sonnet-4-5' },
          mcp_servers: { docs: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${header}` } } },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.run_id as string;
    const run = await ended(server, id, 30_000);
    expect(run.state, `${JSON.stringify(run.status_message)}\n${await outputOf(server, id)}`).toBe('SUCCEEDED');
    // Both reached the harness in the pod.
    expect((run.status_message as { message: string }).message).toBe('prompt seen, header seen');
    expect(seen).toHaveLength(1);
    const { job, secret } = seen[0]!;
    // The Job's spec holds neither: only references to the run's Secret, which holds both.
    const spec = JSON.stringify(job);
    expect(spec).not.toContain(header);
    expect(spec).not.toContain(marker);
    const name = `${job.metadata!.name}-run`;
    const env = job.spec!.template.spec!.containers[0]!.env!;
    for (const variable of ['AGENT_RUNS_JOB_HARNESS', 'AGENT_RUNS_PROMPT', 'AGENT_RUNS_TITLE']) {
      expect(env.find((e) => e.name === variable)).toEqual({ name: variable, valueFrom: { secretKeyRef: { name, key: variable } } });
    }
    expect(secret?.['AGENT_RUNS_JOB_HARNESS']).toContain(header);
    expect(secret?.['AGENT_RUNS_PROMPT']).toContain(marker);
    // Owned by its Job, and deleted at the run's end.
    await eventually(() => cluster.secretsDeleted, (deleted) => deleted.includes(name));
    expect(cluster.secretOwners.get(name)).toBe(job.metadata!.name);
  }, 60_000);

  it("keeps a harness run's attachments up to what one variable of the pod may hold, and leaves them out past it, saying so: the pod starts either way", async (context) => {
    const { expect } = context;
    const claude = podClaude('attached', 'no-header');
    const { cluster, startWorker, server } = await setUp(context, { secret_env: { ANTHROPIC_API_KEY: { secret: 'model-keys', key: 'anthropic' } } }, { harnesses: { claude: { command: claude } } });
    cluster.secrets.set('model-keys', { anthropic: 'sk-ant-pod-7d21' });
    const harnessOf = new Map<string, string | undefined>();
    cluster.script = (job) => {
      harnessOf.set(job.metadata!.annotations!['agent-runs/run-id']!, cluster.secrets.get(`${job.metadata!.name}-run`)?.['AGENT_RUNS_JOB_HARNESS']);
      return 'run';
    };
    await startWorker();
    // Over the 100 KiB it was once cut at, within 127 KiB; then over 128 KiB, which no program's variable may be (the stand-in's pod is a real process).
    const start = async (bytes: number) => {
      const created = await api(server, '/agent/run', {
        method: 'POST',
        body: {
          prompt: 'Read the attached file.',
          config: { worker_host: 'kube', harness: { type: 'claude', model_id: 'claude-sonnet-4-5' } },
          attachments: [{ file_name: 'big.txt', mime_type: 'text/plain', data: Buffer.alloc(bytes, 'a').toString('base64') }],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      return created.body.run_id as string;
    };
    const kept = await start(85_000);
    const dropped = await start(100_000);
    for (const id of [kept, dropped]) {
      const run = await ended(server, id, 30_000);
      expect(run.state, `${JSON.stringify(run.status_message)}\n${await outputOf(server, id)}`).toBe('SUCCEEDED');
    }
    expect(harnessOf.get(kept)).toContain('big.txt');
    expect(Buffer.byteLength(harnessOf.get(kept)!)).toBeGreaterThan(100 * 1024);
    expect(await outputOf(server, kept)).not.toContain('left out');
    expect(harnessOf.get(dropped)).not.toContain('big.txt');
    expect(await outputOf(server, dropped)).toContain("The run's attachments were left out of its remote execution: with them it is over 130048 bytes");
  }, 60_000);

  it("gives the pod the operator's Secrets by reference: the agent has the keys, the Job's spec never their values", async (context) => {
    const { expect } = context;
    const { cluster, startWorker, createRun, server } = await setUp(context, {
      env_from_secrets: ['bulk-keys'],
      secret_env: { MODEL_API_KEY: { secret: 'model-keys', key: 'anthropic' } },
    });
    cluster.secrets.set('model-keys', { anthropic: 'sk-model-7f3e91' });
    cluster.secrets.set('bulk-keys', { OTHER_KEY: 'other-5d2a' });
    let spec: unknown;
    cluster.script = (job) => {
      spec = job;
      return 'run';
    };
    await startWorker();
    const id = await createRun('keys');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const output = await outputOf(server, id);
    expect(output).toContain('model key given');
    expect(output).toContain('bulk key given');
    // The spec as the cluster received it.
    const seen = JSON.stringify(spec);
    expect(seen).not.toContain('sk-model-7f3e91');
    expect(seen).not.toContain('other-5d2a');
    const container = (spec as { spec: { template: { spec: { containers: { env: unknown[]; envFrom: unknown }[] } } } }).spec.template.spec.containers[0]!;
    expect(container.env).toContainEqual({ name: 'MODEL_API_KEY', valueFrom: { secretKeyRef: { name: 'model-keys', key: 'anthropic' } } });
    expect(container.envFrom).toEqual([{ secretRef: { name: 'bulk-keys' } }]);

    // A Secret that is not there keeps the pod from starting: the run ends FAILED naming it, at once.
    cluster.secrets.delete('model-keys');
    const missing = await createRun('keys');
    const failed = await ended(server, missing, 30_000);
    expect(failed.state).toBe('FAILED');
    expect(failed.status_message.message).toMatch(/could not start its container \(CreateContainerConfigError\): couldn't find key anthropic in Secret agent-runs-test\/model-keys; check the Secrets named in kubernetes/);
  }, 60_000);

  it("refuses a run's token for another run, and once the run ended", async (context) => {
    const { expect } = context;
    const { cluster, startWorker, createRun, server } = await setUp(context);
    const worker = await startWorker();
    const a = await createRun('hang');
    const b = await createRun('hang');
    await eventually(() => [a, b].map((id) => cluster.running(id)), (up) => up.every(Boolean), 30_000);
    const url = /their pods report to (http:\/\/127\.0\.0\.1:\d+)/.exec(worker.stderr())![1]!;
    const tokenA = cluster.jobOf(a)!.env!['AGENT_RUNS_JOB_TOKEN']!;
    // HMAC-SHA256 of the worker token over the run and its claim (the run's started_at as claimed).
    expect(tokenA).toBe(entrypointToken(TOKEN, a, (await runOf(server, a)).started_at as string));
    const send = (id: string, token: string) =>
      fetch(`${url}/runs/${id}/output`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ lines: [{ stream: 'stdout', text: 'forged\n' }] }) });
    expect((await send(a, tokenA)).status).toBe(204);
    expect((await send(b, tokenA)).status).toBe(403);
    expect((await send(b, 'x'.repeat(43))).status).toBe(403);
    await eventually(() => outputOf(server, a), (o) => o.includes('forged'));
    expect(await outputOf(server, b)).not.toContain('forged');
    await api(server, `/agent/runs/${a}/cancel`, { method: 'POST' });
    await ended(server, a);
    expect((await send(a, tokenA)).status).toBe(410);
  }, 60_000);
});
