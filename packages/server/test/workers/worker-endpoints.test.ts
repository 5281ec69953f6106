import { afterEach, describe, expect, it } from 'vitest';
import type { ServerOptions } from '../../src/index.js';
import {
  POLL_WAIT_MS,
  WorkerConnectResponseSchema,
  WorkerPollResponseSchema,
  type WorkerConnectRequest,
  type WorkerPollRequest,
  type WorkerPollResponse,
} from '../../src/workers/worker-protocol.js';
import { fromWire } from '../../src/workers/worker-wire.js';
import { eventually } from '../support/eventually.js';
import { bareRemote, git } from '../support/git-remote.js';
import { scriptedGithub } from '../support/scripted-github.js';
import { tempTree } from '../support/server-config.js';
import { writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const TOKEN = 'worker-token-0123456789abcdef';
process.env.AGENT_RUNS_TEST_WORKER_TOKEN = TOKEN;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server whose configuration gives one worker token, for the ids `gpu` and `cpu`. */
async function serverWithWorkers(options: ServerOptions = {}): Promise<TestServer> {
  const configFile = writeServerConfig({ workers: { pool: { token: { from_env: 'AGENT_RUNS_TEST_WORKER_TOKEN' }, worker_hosts: ['gpu', 'cpu'] } } });
  const server = await startTestServer({ configFile, ...options });
  servers.push(server);
  return server;
}

/** A worker's request, with its token, as plain fetch sends it. */
async function send(s: TestServer, path: string, body: unknown, token: string = TOKEN, signal?: AbortSignal) {
  const res = await fetch(`${s.server.url}/api/v1/workers/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const worker = (instance = 'w1', host = 'gpu'): WorkerConnectRequest => ({
  worker_host: host,
  instance_id: instance,
  version: 'test',
  capacity: 2,
  harnesses: [],
  environments: [],
});

async function connect(s: TestServer, instance = 'w1', host = 'gpu') {
  const answer = await send(s, 'connect', worker(instance, host));
  expect(answer.status).toBe(200);
  return WorkerConnectResponseSchema.parse(answer.body);
}

async function poll(s: TestServer, request: Partial<WorkerPollRequest> = {}, signal?: AbortSignal): Promise<WorkerPollResponse> {
  const answer = await send(s, 'poll', { instance_id: 'w1', free_slots: 1, draining: false, runs: [], ...request }, TOKEN, signal);
  expect(answer.status).toBe(200);
  return WorkerPollResponseSchema.parse(answer.body);
}

async function createRun(s: TestServer, config: Record<string, unknown> = { worker_host: 'gpu' }, prompt = 'say hello') {
  const created = await s.raw('/api/v1/agent/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt, config }) });
  expect(created.status).toBe(200);
  return created.body.run_id as string;
}

const runOf = async (s: TestServer, id: string) => (await s.raw(`/api/v1/agent/runs/${id}`)).body;

describe('self-hosted workers, the server side', () => {
  it('keeps worker tokens and API keys apart, both ways', async () => {
    const s = await serverWithWorkers();
    expect((await s.raw('/api/v1/agent/runs', { key: TOKEN })).status).toBe(401);
    expect((await send(s, 'connect', worker(), s.server.apiKey!)).status).toBe(401);
    expect((await send(s, 'connect', worker(), 'not-a-token')).status).toBe(401);
    const other = await send(s, 'connect', worker('w1', 'elsewhere'));
    expect(other.status).toBe(403);
    expect(JSON.stringify(other.body)).toContain('elsewhere');
  });

  it('refuses a worker_host no token names, naming agent_config.worker_host', async () => {
    const s = await serverWithWorkers();
    const created = await s.raw('/api/v1/agent/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x', config: { worker_host: 'nowhere' } }),
    });
    expect(created.status).toBe(400);
    expect(created.body.issues?.[0]?.path ?? '').toContain('agent_config.worker_host');
    expect(created.body.detail).toContain('cpu, gpu');
  });

  it('refuses an unknown worker_host on named agents and schedules too', async () => {
    const s = await serverWithWorkers();
    const post = (path: string, body: unknown) =>
      s.raw(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const agent = await post('/api/v1/agent/identities', { name: 'far', worker_host: 'nowhere' });
    expect(agent.status).toBe(400);
    expect(agent.body.issues?.[0]?.path).toBe('worker_host');
    expect((await post('/api/v1/agent/identities', { name: 'near', worker_host: 'gpu' })).status).toBe(201);
    const schedule = await post('/api/v1/agent/schedules', { name: 'far', cron_schedule: '0 9 * * *', prompt: 'x', agent_config: { worker_host: 'nowhere' } });
    expect(schedule.status).toBe(400);
    expect(schedule.body.issues?.[0]?.path).toBe('agent_config.worker_host');
  });

  it('gives a routed run to a worker of its host, never to its own queue, and takes its output and outcome', async () => {
    const s = await serverWithWorkers();
    const runId = await createRun(s);
    // The simulated executor would have ended it long since (100 ms): it waits for its worker.
    await new Promise((r) => setTimeout(r, 400));
    const waiting = await runOf(s, runId);
    expect(waiting.state).toBe('QUEUED');
    expect(waiting.status_message?.message).toContain('gpu');

    await connect(s);
    const answer = await poll(s);
    expect(answer.assignments).toHaveLength(1);
    const { claim, run, input } = fromWire(answer.assignments[0]!);
    expect(run.id).toBe(runId);
    expect(input.conversation[0]).toMatchObject({ kind: 'prompt', text: 'say hello' });
    expect((await runOf(s, runId)).state).toBe('INPROGRESS');

    const report = await send(s, `runs/${runId}/report`, { instance_id: 'w1', claim, output: [{ stream: 'stdout', text: 'hello from the worker\n' }] });
    expect(report.status).toBe(204);
    await eventually(
      () => s.raw(`/api/v1/agent/runs/${runId}/output`),
      (r) => JSON.stringify(r.body).includes('hello from the worker'),
      5000,
    );

    const finish = await send(s, `runs/${runId}/finish`, {
      instance_id: 'w1',
      claim,
      execution: input.number,
      state: 'SUCCEEDED',
      artifacts: [{ type: 'FILE', data: { filename: 'a.txt', filepath: 'a.txt', mime_type: 'text/plain', size_bytes: 2 }, content_base64: Buffer.from('hi').toString('base64') }],
    });
    expect(finish.status).toBe(204);
    const done = await runOf(s, runId);
    expect(done.state).toBe('SUCCEEDED');
    expect(JSON.stringify(done.artifacts)).toContain('a.txt');
    // A second finish under the same claim finds no lease.
    expect((await send(s, `runs/${runId}/finish`, { instance_id: 'w1', claim, execution: input.number, state: 'SUCCEEDED' })).status).toBe(409);
  });

  it('records a finish sent again while the first is still publishing its pull request once: one push, one pull request, one patch', async () => {
    const remote = bareRemote();
    // GitHub answers slowly: the worker's second send of the finish comes while the first is under way.
    const github = await scriptedGithub('ghp_slowGithubToken0123456789', { status: 201, number: 3, delayMs: 1500 });
    try {
      const dir = tempTree({ token: 'ghp_slowGithubToken0123456789' });
      const configFile = writeServerConfig({
        workers: { pool: { token: { from_env: 'AGENT_RUNS_TEST_WORKER_TOKEN' }, worker_hosts: ['gpu'] } },
        secrets: { GH: { from_file: `${dir}/token` } },
        environments: { web: { repos: [{ url: remote, path: 'web', pull_requests: { mode: 'ready', credential: 'GH', api_url: github.url } }] } },
      });
      const s = await startTestServer({ configFile });
      servers.push(s);
      const runId = (await s.raw('/api/v1/agent/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'x', config: { worker_host: 'gpu', environment_id: 'web' } }) })).body.run_id as string;
      await connect(s);
      const { claim, input } = fromWire((await poll(s)).assignments[0]!);
      const patch = 'diff --git a/web/notes.txt b/web/notes.txt\nnew file mode 100644\n--- /dev/null\n+++ b/web/notes.txt\n@@ -0,0 +1 @@\n+from the worker\n';
      const body = {
        instance_id: 'w1',
        claim,
        execution: input.number,
        state: 'SUCCEEDED',
        artifacts: [{ type: 'FILE', data: { filename: 'changes.patch', filepath: 'changes.patch', mime_type: 'text/x-diff', size_bytes: patch.length }, content_base64: Buffer.from(patch).toString('base64') }],
      };
      const first = send(s, `runs/${runId}/finish`, body);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const again = send(s, `runs/${runId}/finish`, body);
      expect([(await first).status, (await again).status]).toEqual([204, 204]);
      const done = await runOf(s, runId);
      expect(done.state).toBe('SUCCEEDED');
      expect(done.artifacts.map((a: { artifact_type: string }) => a.artifact_type).sort()).toEqual(['FILE', 'PULL_REQUEST']);
      expect(github.seen.filter((r) => r.path.endsWith('/pulls'))).toHaveLength(1);
      expect(git(remote, 'rev-list', '--count', `main..agent-runs/${runId}`).trim()).toBe('1');
    } finally {
      await github.close();
    }
  });

  it("keeps a finish's artifacts within the run's limits, and says in the run's output which it left out", async () => {
    const s = await serverWithWorkers({ maxArtifactBytes: 8 });
    const runId = await createRun(s);
    await connect(s);
    const { claim, input } = fromWire((await poll(s)).assignments[0]!);
    const file = (name: string, text: string) => ({
      type: 'FILE',
      data: { filename: name, filepath: name, mime_type: 'text/plain', size_bytes: text.length },
      content_base64: Buffer.from(text).toString('base64'),
    });
    const finish = await send(s, `runs/${runId}/finish`, { instance_id: 'w1', claim, execution: input.number, state: 'SUCCEEDED', artifacts: [file('small.txt', 'ok'), file('big.txt', 'far too long')] });
    expect(finish.status).toBe(204);
    const done = await runOf(s, runId);
    expect(done.state).toBe('SUCCEEDED');
    expect(JSON.stringify(done.artifacts)).toContain('small.txt');
    expect(JSON.stringify(done.artifacts)).not.toContain('big.txt');
    await eventually(
      () => s.raw(`/api/v1/agent/runs/${runId}/output`),
      (r) => JSON.stringify(r.body).includes('an artifact of 12 bytes from the worker (FILE) left out: over the limit of 8 bytes per file'),
      5000,
    );
  });

  it('answers a waiting poll as soon as a run is queued for its host', async () => {
    const s = await serverWithWorkers();
    await connect(s);
    const started = Date.now();
    const polled = poll(s);
    await new Promise((r) => setTimeout(r, 200));
    const runId = await createRun(s);
    const answer = await polled;
    expect(answer.assignments.map((a) => a.run.id)).toEqual([runId]);
    expect(Date.now() - started).toBeLessThan(POLL_WAIT_MS / 2);
  });

  it('sends a cancel to the worker holding the run, and refuses its later finish', async () => {
    const s = await serverWithWorkers();
    await connect(s);
    const runId = await createRun(s);
    const { claim, input } = fromWire((await poll(s)).assignments[0]!);
    const waiting = poll(s, { free_slots: 0, runs: [{ run_id: runId, claim }] });
    await new Promise((r) => setTimeout(r, 100));
    expect((await s.raw(`/api/v1/agent/runs/${runId}/cancel`, { method: 'POST' })).status).toBe(200);
    const answer = await waiting;
    expect(answer.commands).toEqual([{ kind: 'cancel', run_id: runId }]);
    expect((await runOf(s, runId)).state).toBe('CANCELLED');
    expect((await send(s, `runs/${runId}/finish`, { instance_id: 'w1', claim, execution: input.number, state: 'CANCELLED' })).status).toBe(409);
  });

  it('hands a follow-up to a run a worker executes as a command', async () => {
    const s = await serverWithWorkers();
    await connect(s);
    const runId = await createRun(s);
    const { claim } = fromWire((await poll(s)).assignments[0]!);
    const waiting = poll(s, { free_slots: 0, runs: [{ run_id: runId, claim }] });
    await new Promise((r) => setTimeout(r, 100));
    const followup = await s.raw(`/api/v1/agent/runs/${runId}/followups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'and goodbye' }),
    });
    expect(followup.status).toBe(200);
    const answer = await waiting;
    expect(answer.renewed).toEqual([runId]);
    expect(answer.commands).toMatchObject([{ kind: 'followup', run_id: runId, followup: { message: 'and goodbye' } }]);
  });

  it('takes a run given back only under its lease and execution; given back, the run is queued and its next execution answers the follow-up sent before', async () => {
    const s = await serverWithWorkers();
    await connect(s, 'w1');
    await connect(s, 'w2');
    const runId = await createRun(s);
    const { claim, input } = fromWire((await poll(s)).assignments[0]!);
    const back = (body: Record<string, unknown>) => send(s, `runs/${runId}/give-back`, { instance_id: 'w1', claim, execution: input.number, ...body });
    // A follow-up sent while the run is held: handed to its worker as a command, taken by no agent.
    const followup = await s.raw(`/api/v1/agent/runs/${runId}/followups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'and goodbye' }) });
    expect(followup.status).toBe(200);

    const wrongClaim = await back({ claim: '2000-01-01T00:00:00.000Z' });
    expect(wrongClaim.status).toBe(409);
    expect((await back({ instance_id: 'w2' })).status).toBe(409);
    expect((await back({ execution: input.number + 1 })).status).toBe(409);
    const unknownField = await back({ state: 'FAILED' });
    expect(unknownField.status).toBe(400);
    expect(JSON.stringify(unknownField.body)).toContain('state');
    // Its reason reaches the run's output: one line, or refused naming it.
    const forged = await back({ reason: 'undone\n[agent-runs] The run SUCCEEDED' });
    expect(forged.status).toBe(400);
    expect(JSON.stringify(forged.body)).toMatch(/reason.*control characters/);
    // Nothing changed: the run is still w1's, its report taken, its execution unended.
    expect((await runOf(s, runId)).state).toBe('INPROGRESS');
    expect((await send(s, `runs/${runId}/report`, { instance_id: 'w1', claim, output: [{ stream: 'stdout', text: 'still here\n' }] })).status).toBe(204);
    expect((await s.raw(`/api/v1/agent/runs/${runId}/conversation`)).body.steps[0].summary).toBeUndefined();

    expect((await back({ reason: 'its start was undone' })).status).toBe(204);
    expect((await runOf(s, runId)).state).toBe('QUEUED');
    // Given back once: a second give-back, as a worker retrying sends it, finds no lease.
    expect((await back({})).status).toBe(409);
    await eventually(
      () => s.raw(`/api/v1/agent/runs/${runId}/output`),
      (r) => JSON.stringify(r.body).includes('The worker gave the run back before its agent started (its start was undone)'),
      5000,
    );

    const answer = await poll(s);
    // The follow-up's command, queued for the execution given back, is not sent: the next one has it in its input.
    expect(answer.commands).toEqual([]);
    const next = fromWire(answer.assignments[0]!);
    expect(next.run.id).toBe(runId);
    expect(next.claim).not.toBe(claim);
    expect(next.input.number).toBe(input.number + 1);
    expect(next.input.followups.map((f) => f.message)).toEqual(['and goodbye']);
    const steps = (await s.raw(`/api/v1/agent/runs/${runId}/conversation`)).body.steps;
    expect(steps[0].summary).toBe('The execution was stopped before it started.');
    // The old claim finds nothing of the run's new execution.
    expect((await back({})).status).toBe(409);
    expect((await send(s, `runs/${runId}/finish`, { instance_id: 'w1', claim: next.claim, execution: next.input.number, state: 'SUCCEEDED' })).status).toBe(204);
    expect((await runOf(s, runId)).state).toBe('SUCCEEDED');
  });

  it('fails the run of a worker that stopped renewing its lease, naming the worker, and refuses its reports', async () => {
    const s = await serverWithWorkers({ leaseMs: 600 });
    await connect(s);
    const runId = await createRun(s);
    const { claim } = fromWire((await poll(s)).assignments[0]!);
    const failed = await eventually(() => runOf(s, runId), (run) => run.state === 'FAILED', 5000);
    expect(failed.status_message.message).toContain('The worker gpu/w1 stopped renewing its lease');
    expect((await send(s, `runs/${runId}/report`, { instance_id: 'w1', claim, output: [{ stream: 'stdout', text: 'late' }] })).status).toBe(409);
  });

  it('answers a waiting poll at once, with its leases renewed, when the server shuts down', async () => {
    const s = await serverWithWorkers();
    await connect(s);
    const runId = await createRun(s);
    const { claim } = fromWire((await poll(s)).assignments[0]!);
    const waiting = poll(s, { free_slots: 1, runs: [{ run_id: runId, claim }] });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const closed = s.server.close();
    const answer = await waiting;
    expect(answer).toMatchObject({ assignments: [], commands: [], renewed: [runId] });
    expect(Date.now() - started).toBeLessThan(POLL_WAIT_MS / 5);
    await closed;
  });

  it('with --workers-only, runs nothing itself and gives workers the unrouted runs, and lists them connected', async () => {
    const s = await serverWithWorkers({ workersOnly: true });
    const runId = await createRun(s, {});
    await new Promise((r) => setTimeout(r, 400));
    expect((await runOf(s, runId)).state).toBe('QUEUED');
    const connected = await connect(s, 'w1', 'cpu');
    expect(connected.takes_unrouted).toBe(true);
    const answer = await poll(s);
    expect(answer.assignments.map((a) => a.run.id)).toEqual([runId]);
    const list = await s.raw('/api/v1/agent/connected-self-hosted-workers');
    expect(list.status).toBe(200);
    expect(list.body.workers).toMatchObject([{ worker_host: 'cpu', instance_id: 'w1', capacity: 2 }]);
  });
});
