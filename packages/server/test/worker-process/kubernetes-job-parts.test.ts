import { afterEach, describe, expect, it } from 'vitest';
import { JobRelay, type RelayedRun } from '../../src/worker-process/kubernetes/job-relay.js';
import type { V1Job } from '@kubernetes/client-node';
import { deadlineEnd } from '../../src/worker-process/kubernetes/job-deadline.js';
import { kubeTime } from '../../src/worker-process/kubernetes/kube-time.js';
import { DEFAULT_JOB_DEADLINE_SECONDS, jobName, labelValue } from '../../src/worker-process/kubernetes/job-spec.js';
import { entrypointToken } from '../../src/worker-process/kubernetes/entrypoint-token.js';

const WORKER_TOKEN = 'a-worker-token-0123456789abcdef';

describe('a Job name', () => {
  it('is a DNS label within 63 characters, with the run id and the execution, and never shared by two long run ids', () => {
    const id = '01a22542-971a-70d6-bfb3-8a49f391bd8a';
    expect(jobName(id, 1)).toBe(`agent-runs-${id}-1`);
    const long = (tail: string) => `Run_${'x'.repeat(80)}${tail}`;
    const [a, b] = [jobName(long('a'), 12), jobName(long('b'), 12)];
    for (const name of [a, b]) {
      expect(name.length).toBeLessThanOrEqual(63);
      expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      expect(name.endsWith('-12')).toBe(true);
    }
    expect(a).not.toBe(b);
    expect(labelValue('-bad value with spaces and more than sixty-three characters in it, surely-')).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,61}[A-Za-z0-9]$/);
  });
});

describe('a time on a Kubernetes object', () => {
  it('reads as the client gives it (a Date) and as the API writes it (RFC 3339), to the millisecond; absent or unreadable is undefined', () => {
    expect(kubeTime(new Date('2026-01-01T00:00:01.250Z'))).toBe(Date.UTC(2026, 0, 1, 0, 0, 1, 250));
    expect(kubeTime('2026-01-01T00:00:01.250Z')).toBe(Date.UTC(2026, 0, 1, 0, 0, 1, 250));
    expect(kubeTime('2026-01-01T02:00:01+02:00')).toBe(Date.UTC(2026, 0, 1, 0, 0, 1));
    for (const none of [undefined, null, '', 'yesterday', new Date(Number.NaN)]) expect(kubeTime(none)).toBeUndefined();
  });
});

describe('a Job past its deadline', () => {
  const past = (seconds: number, type: 'Failed' | 'FailureTarget' = 'Failed'): V1Job => ({
    spec: { activeDeadlineSeconds: seconds, template: {} },
    status: { startTime: new Date('2026-01-01T00:00:00Z'), conditions: [{ type, status: 'True', reason: 'DeadlineExceeded', lastTransitionTime: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds + 1)) }] },
  });

  it("ends the run BLOCKED with the server's budget words when the deadline is the run's max_duration_seconds, from FailureTarget on", () => {
    for (const type of ['Failed', 'FailureTarget'] as const) {
      expect(deadlineEnd(past(30, type), { max_duration_seconds: 30 })).toEqual({
        state: 'BLOCKED',
        statusMessage: { error_code: 'budget_exceeded', retryable: false, message: expect.stringMatching(/^stopped at the budget: 31 s run of max_duration_seconds 30\. A follow-up with a raised/) },
      });
    }
  });

  it("ends it FAILED when the deadline is the worker's default (no cap) or not the run's cap; nothing while none passed", () => {
    const ownDefault = deadlineEnd(past(DEFAULT_JOB_DEADLINE_SECONDS), { max_cost_usd: 1 });
    expect(ownDefault).toMatchObject({ state: 'FAILED', statusMessage: { message: expect.stringMatching(/deadline of 28800 s \(the Job's activeDeadlineSeconds, the worker's default for a run without max_duration_seconds\)/) } });
    expect(deadlineEnd(past(DEFAULT_JOB_DEADLINE_SECONDS), undefined)?.state).toBe('FAILED');
    expect(deadlineEnd(past(5), { max_duration_seconds: 30 })?.state).toBe('FAILED');
    const running: V1Job = { spec: { activeDeadlineSeconds: 30, template: {} }, status: { active: 1, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] } };
    expect(deadlineEnd(running, { max_duration_seconds: 30 })).toBeUndefined();
  });
});

describe("the worker's listener for Jobs", () => {
  const relays: JobRelay[] = [];
  afterEach(() => relays.splice(0).forEach((r) => r.close()));

  async function relayWith(runId: string, claim: string) {
    const relay = new JobRelay(WORKER_TOKEN);
    relays.push(relay);
    const { port } = await relay.listen({ host: '127.0.0.1', port: 0 });
    const taken: string[] = [];
    const run: RelayedRun = { claim, output: ({ lines }) => taken.push(...lines.map((l) => l.text)), end: async () => {} };
    return { relay, run, taken, url: `http://127.0.0.1:${port}` };
  }
  const post = (url: string, token: string | undefined, body: unknown) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('answers 503 while a restart is followed again, then takes the run token alone, and 410 once the run is gone', async () => {
    const { relay, run, taken, url } = await relayWith('run-1', 'claim-a');
    const token = entrypointToken(WORKER_TOKEN, 'run-1', 'claim-a');
    const lines = { lines: [{ stream: 'stdout', text: 'hello\n' }] };
    expect((await post(`${url}/runs/run-1/output`, token, lines)).status).toBe(503);
    relay.attach('run-1', run);
    relay.markReady();
    expect((await post(`${url}/runs/run-1/output`, undefined, lines)).status).toBe(401);
    // The token of the same run under an earlier claim (a run claimed again) opens nothing.
    expect((await post(`${url}/runs/run-1/output`, entrypointToken(WORKER_TOKEN, 'run-1', 'claim-0'), lines)).status).toBe(403);
    expect((await post(`${url}/runs/run-1/output`, entrypointToken('another-worker-token-0123456789', 'run-1', 'claim-a'), lines)).status).toBe(403);
    const bad = await post(`${url}/runs/run-1/output`, token, { lines: [{ stream: 'stdin', text: 'x' }] });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('lines');
    expect((await post(`${url}/runs/run-1/output`, token, '{not json')).status).toBe(400);
    expect((await post(`${url}/runs/run-1/output`, token, lines)).status).toBe(204);
    expect(taken).toEqual(['hello\n']);
    relay.detach('run-1', run);
    expect((await post(`${url}/runs/run-1/output`, token, lines)).status).toBe(410);
    expect((await fetch(`${url}/runs/run-1/output`)).status).toBe(405);
    expect((await post(`${url}/elsewhere`, token, lines)).status).toBe(404);
  });

  it("passes a harness's state on while it runs (its usage, its session id), refusing one that is not, naming the field", async () => {
    const { relay, run, url } = await relayWith('run-2', 'claim-b');
    const states: unknown[] = [];
    run.state = (state) => states.push(state);
    relay.attach('run-2', run);
    relay.markReady();
    const token = entrypointToken(WORKER_TOKEN, 'run-2', 'claim-b');
    const bad = await post(`${url}/runs/run-2/state`, token, { usage: { total_tokens: 'many' } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('usage.total_tokens');
    expect((await post(`${url}/runs/run-2/state`, token, { secret: 'x' })).status).toBe(400);
    expect((await post(`${url}/runs/run-2/state`, entrypointToken(WORKER_TOKEN, 'run-1', 'claim-b'), { usage: { total_tokens: 5 } })).status).toBe(403);
    expect((await post(`${url}/runs/run-2/state`, token, { usage: { total_tokens: 120, inference_cost_usd: 0.25 }, harness_session_id: 'sess-1' })).status).toBe(204);
    expect(states).toEqual([{ usage: { total_tokens: 120, inference_cost_usd: 0.25 }, harness_session_id: 'sess-1' }]);
  });
});
