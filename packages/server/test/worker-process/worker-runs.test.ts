import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionInput } from '../../src/executors/execution-input.js';
import type { RunRecord } from '../../src/store/runs/run-record.js';
import { eventually } from '../support/eventually.js';
import { WORKER_AGENT as AGENT, agentBeats } from '../support/worker-agent.js';
import { newRun } from '../support/new-run.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';
import { WorkerProtocolServer } from '../support/worker-protocol-server.js';

/**
 * The worker process against the server's half of the protocol: the real `agent-runs-worker`
 * running the real command agent, the server side kept to what the protocol says.
 */

const TOKEN = 'worker-runs-test-token-81c4';

const INPUT: ExecutionInput = {
  number: 1,
  followups: [],
  conversation: [{ kind: 'prompt', role: 'user', text: '', created_at: '2026-01-01T00:00:00.000Z', execution: 1 }],
  attachments: [],
  limits: { maxFileBytes: 1024 * 1024, maxRunBytes: 10 * 1024 * 1024, maxArtifactsPerExecution: 100 },
  usedBytes: 0,
};

function run(id: string, prompt: string): RunRecord {
  const { request: _r, idempotencyKey: _i, requestHash: _h, ...record } = newRun(id, { prompt, agentConfig: { worker_host: 'box-1' } as RunRecord['agentConfig'] });
  return { ...record, seq: 1 };
}

const pidOf = (server: WorkerProtocolServer, runId: string): number | undefined => {
  const found = /pid=(\d+)/.exec(server.outputOf(runId));
  return found ? Number(found[1]) : undefined;
};

let workDir = '';

const alive = (runId: string) => agentBeats(workDir, runId);

let server: WorkerProtocolServer | undefined;
let worker: WorkerProcess | undefined;

afterEach(async () => {
  if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
    worker.child.kill('SIGCONT');
    worker.child.kill('SIGKILL');
    await worker.exited;
  }
  await server?.close();
  worker = undefined;
  server = undefined;
});

async function start(leaseMs: number, args: string[] = []): Promise<{ server: WorkerProtocolServer; worker: WorkerProcess }> {
  server = await new WorkerProtocolServer(TOKEN, leaseMs, 300).start();
  workDir = mkdtempSync(join(tmpdir(), 'worker-runs-'));
  worker = await startWorkerProcess(['--server', server.url, '--worker-host', 'box-1', '--command', AGENT, '--work-dir', workDir, ...args], TOKEN);
  return { server, worker };
}

describe('agent-runs-worker', () => {
  it("holds a run's duration cap as the server does: the agent stopped at it, the run BLOCKED with what it ran", async () => {
    const { server } = await start(10_000);
    const capped = run('run-capped', 'hang');
    server.assign({ ...capped, agentConfig: { ...capped.agentConfig, budget: { max_duration_seconds: 1 } } }, INPUT);
    const [finish] = await eventually(() => server.finishesOf('run-capped'), (f) => f.length > 0);
    expect(finish!.body).toMatchObject({ state: 'BLOCKED', status_message: { error_code: 'budget_exceeded', message: expect.stringMatching(/^stopped at the budget: 1 s run of max_duration_seconds 1\. /) } });
    // Its process is gone: its beat stands still.
    expect(await alive('run-capped')).toBe(false);
  });

  it('runs an assignment with the command agent: its lines reach the server at once, then its end with its artifacts', async () => {
    const { server, worker } = await start(10_000, ['--listen', '127.0.0.1:0', '--concurrency', '3']);
    expect(server.connects[0]).toMatchObject({ worker_host: 'box-1', capacity: 3, environments: [] });
    expect((await fetch(`${worker.probesUrl}/readyz`)).status).toBe(200);
    server.assign(run('run-ok', 'ok'), INPUT);
    const [finish] = await eventually(() => server.finishesOf('run-ok'), (f) => f.length > 0);
    expect(finish!.status).toBe(200);
    expect(finish!.body).toMatchObject({ state: 'SUCCEEDED', execution: 1, claim: 'claim-1' });
    const file = finish!.body.artifacts?.find((a) => a.type === 'FILE');
    expect(Buffer.from(file!.content_base64!, 'base64').toString()).toBe('hello artifact');
    expect(server.outputOf('run-ok')).toMatch(/^pid=\d+\nline one\nline two\n$/);
    // The first line did not wait for the agent's pause: it reached the server well before the end.
    const first = server.reportsOf('run-ok').find((r) => r.body.output?.some((l) => l.text.includes('line one')));
    expect(finish!.at - first!.at).toBeGreaterThan(1000);
    // Held, the run was named in the polls (renewing its lease) and took a slot.
    expect(server.polls.some((p) => p.body.runs.some((r) => r.run_id === 'run-ok') && p.body.free_slots === 2)).toBe(true);
    const metrics = await (await fetch(`${worker.probesUrl}/metrics`)).text();
    expect(metrics).toContain('agent_runs_worker_runs_finished_total{outcome="SUCCEEDED"} 1');
    expect(metrics).toContain('agent_runs_worker_capacity 3');
    expect(server.malformed).toEqual([]);
    expect(worker.stderr()).toMatch(/Run run-ok: taken/);
    expect(worker.stderr()).toMatch(/Run run-ok: ended SUCCEEDED/);
    expect(worker.stderr()).not.toContain(TOKEN);
  }, 15_000);

  it('passes a cancel on to the agent, which stops, and finishes the run CANCELLED', async () => {
    const { server } = await start(10_000);
    server.assign(run('run-cancel', 'hang'), INPUT);
    await eventually(() => pidOf(server, 'run-cancel'), (p) => p !== undefined);
    await eventually(() => alive('run-cancel'), (up) => up);
    server.command({ kind: 'cancel', run_id: 'run-cancel' });
    const [finish] = await eventually(() => server.finishesOf('run-cancel'), (f) => f.length > 0);
    expect(finish!.body.state).toBe('CANCELLED');
    expect(await alive('run-cancel')).toBe(false);
  }, 15_000);

  it('keeps one report in flight per run, gathering the lines that come meanwhile, in order', async () => {
    const { server } = await start(10_000);
    server.reportDelayMs = 150;
    server.assign(run('run-burst', 'burst 3000'), INPUT);
    const [finish] = await eventually(() => server.finishesOf('run-burst'), (f) => f.length > 0);
    expect(finish!.body.state).toBe('SUCCEEDED');
    const expected = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}\n`).join('');
    expect(server.outputOf('run-burst').replace(/^pid=\d+\n/, '')).toBe(expected);
    expect(server.maxReportsInFlight).toBe(1);
    // Gathered: far fewer reports than lines, the finish after the last of them.
    const reports = server.reportsOf('run-burst');
    expect(reports.length).toBeLessThan(100);
    expect(finish!.at).toBeGreaterThan(reports.at(-1)!.at);
  }, 15_000);

  it('hands a follow-up to the running agent', async () => {
    const { server } = await start(10_000);
    server.assign(run('run-inbox', 'inbox'), INPUT);
    await eventually(() => pidOf(server, 'run-inbox'), (p) => p !== undefined);
    server.command({ kind: 'followup', run_id: 'run-inbox', followup: { id: 'f-1', message: 'also the tests', mode: null, created_at: '2026-01-01T00:00:01.000Z' } });
    const [finish] = await eventually(() => server.finishesOf('run-inbox'), (f) => f.length > 0);
    expect(finish!.body.state).toBe('SUCCEEDED');
    expect(server.outputOf('run-inbox')).toContain('got also the tests\n');
  }, 15_000);

  it('drains on SIGTERM: the runs it holds finish, it takes no new one, and exits 0', async () => {
    const { server, worker } = await start(10_000, ['--listen', '127.0.0.1:0']);
    server.assign(run('run-a', 'sleep 2500'), INPUT);
    server.assign(run('run-b', 'sleep 2500'), INPUT);
    await eventually(() => [pidOf(server, 'run-a'), pidOf(server, 'run-b')], (pids) => pids.every((p) => p !== undefined));
    const signalledAt = performance.now();
    worker.child.kill('SIGTERM');
    await eventually(async () => (await fetch(`${worker.probesUrl}/readyz`)).status, (status) => status === 503);
    server.assign(run('run-c', 'ok'), INPUT);
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    for (const id of ['run-a', 'run-b']) expect(server.finishesOf(id).map((f) => [f.body.state, f.status])).toEqual([['SUCCEEDED', 200]]);
    expect(server.finishesOf('run-c')).toEqual([]);
    expect(server.reportsOf('run-c')).toEqual([]);
    // Polls after the signal said so, offered no slot, and still renewed the runs held.
    const after = server.polls.filter((p) => p.at > signalledAt + 50);
    expect(after.length).toBeGreaterThan(0);
    for (const poll of after) expect(poll.body).toMatchObject({ draining: true, free_slots: 0 });
    expect(after.some((p) => p.body.runs.length === 2)).toBe(true);
  }, 15_000);

  it('stops a run whose drain ran out, finishing it FAILED saying the worker shut down', async () => {
    const { server, worker } = await start(10_000, ['--drain-timeout', '500ms', '--instance-id', 'box-1-a']);
    server.assign(run('run-long', 'hang'), INPUT);
    await eventually(() => pidOf(server, 'run-long'), (p) => p !== undefined);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    const [finish] = server.finishesOf('run-long');
    expect(finish!.body).toMatchObject({ state: 'FAILED', status_message: { message: 'The worker box-1-a shut down before the run ended.' } });
    expect(await alive('run-long')).toBe(false);
  }, 15_000);

  it('frozen past its lease (SIGSTOP, then SIGCONT): stops its agent itself and nothing it sends lands', async () => {
    const { server, worker } = await start(2_500);
    server.assign(run('run-frozen', 'hang'), INPUT);
    await eventually(() => pidOf(server, 'run-frozen'), (p) => p !== undefined);
    worker.child.kill('SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    await eventually(() => alive('run-frozen'), (up) => up);
    const resumedAt = performance.now();
    worker.child.kill('SIGCONT');
    await eventually(() => alive('run-frozen'), (up) => !up, 5_000);
    // Let whatever it might still send arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(server.expired('run-frozen')).toBe(true);
    // A report already on its way when it froze may land; once thawed it sends nothing at all.
    const sentAfter = [...server.reportsOf('run-frozen'), ...server.finishesOf('run-frozen')].filter((r) => r.at > resumedAt);
    expect(sentAfter).toEqual([]);
    // It stopped the agent without a word to the server, and took no 409 to learn it.
    expect(server.finishesOf('run-frozen')).toEqual([]);
    expect(worker.stderr()).toMatch(/Run run-frozen: lease lost \(its lease was not renewed/);
  }, 15_000);

  it('stops the agent of a run the server did not renew, and sends nothing more for it', async () => {
    const { server, worker } = await start(10_000);
    server.assign(run('run-dropped', 'hang-loud'), INPUT);
    await eventually(() => pidOf(server, 'run-dropped'), (p) => p !== undefined);
    server.withhold('run-dropped');
    await eventually(() => alive('run-dropped'), (up) => !up, 10_000);
    // Let whatever it might still send arrive.
    await new Promise((resolve) => setTimeout(resolve, 700));
    // What the agent printed once told to stop comes after the worker gave the run up, so it must
    // not reach the server (a report already in flight with earlier ticks may). The agent prints it
    // when it gets to: in the sandbox its wrapper, told too, may end it first.
    const sent = server.reportsOf('run-dropped').flatMap((r) => r.body.output ?? []).map((line) => line.text);
    expect(sent).toContain('tick\n');
    expect(sent.join('')).not.toContain('stopping');
    expect(server.finishesOf('run-dropped')).toEqual([]);
    expect(worker.stderr()).toMatch(/Run run-dropped: lease lost \(the server did not renew its lease\)/);
  }, 15_000);
});
