import { describe, expect, it } from 'vitest';
import { APIUserAbortError, NotFoundError, WaitTimeoutError, runHeadline, type RunChange, type RunUpdate } from '../src/index.js';
import { useFaultServer } from './support/use-fault-server.js';

const fast = { pollInterval: 10, maxPollInterval: 40 };

describe('runs.wait', () => {
  const ctx = useFaultServer();

  async function created(states: Array<string | Record<string, unknown>>, headers?: Record<string, string>) {
    const { run_id } = await ctx.client.runs.create({ prompt: 'work' });
    ctx.server.script(run_id, states, headers);
    return run_id;
  }

  it('follows every transition to SUCCEEDED and reports each change once', async () => {
    const id = await created(['QUEUED', 'QUEUED', 'PENDING', 'CLAIMED', 'INPROGRESS', 'INPROGRESS', 'SUCCEEDED']);
    const updates: RunUpdate[] = [];
    const run = await ctx.client.runs.wait(id, { ...fast, onUpdate: (u) => void updates.push(u) });
    expect(run.state).toBe('SUCCEEDED');
    expect(updates.map((u) => u.run.state)).toEqual(['QUEUED', 'PENDING', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);
    expect(updates[1]!.previous?.state).toBe('QUEUED');
  });

  it('says whether an update changed the state: yes on the first, no when only the message moved', async () => {
    const id = await created(['INPROGRESS', { state: 'INPROGRESS', status_message: { message: 'half way' } }, 'SUCCEEDED']);
    const updates: RunUpdate[] = [];
    await ctx.client.runs.wait(id, { ...fast, onUpdate: (u) => void updates.push(u) });
    expect(updates.map((u) => [u.run.state, u.stateChanged])).toEqual([
      ['INPROGRESS', true],
      ['INPROGRESS', false],
      ['SUCCEEDED', true],
    ]);
  });

  it.each(['FAILED', 'ERROR', 'CANCELLED', 'BLOCKED'])('stops at %s', async (state) => {
    const id = await created(['INPROGRESS', { state, status_message: { message: 'why' } }]);
    const run = await ctx.client.runs.wait(id, fast);
    expect(run.state).toBe(state);
    expect(run.status_message?.message).toBe('why');
  });

  it('keeps waiting through a state it does not know', async () => {
    const id = await created(['INPROGRESS', 'THINKING_HARD', 'SUCCEEDED']);
    const seen: string[] = [];
    await ctx.client.runs.wait(id, { ...fast, onUpdate: ({ run }) => void seen.push(run.state) });
    expect(seen).toEqual(['INPROGRESS', 'THINKING_HARD', 'SUCCEEDED']);
  });

  it('reports a change of status message within a state', async () => {
    const id = await created([
      { state: 'INPROGRESS', status_message: { message: 'cloning' } },
      { state: 'INPROGRESS', status_message: { message: 'testing' } },
      'SUCCEEDED',
    ]);
    const messages: Array<string | undefined> = [];
    await ctx.client.runs.wait(id, { ...fast, onUpdate: ({ run }) => void messages.push(run.status_message?.message) });
    expect(messages.slice(0, 2)).toEqual(['cloning', 'testing']);
  });

  it('times out with a typed error carrying the last run seen', async () => {
    const id = await created(['INPROGRESS']);
    const error = (await ctx.client.runs.wait(id, { ...fast, timeout: 200 }).catch((e: unknown) => e)) as WaitTimeoutError;
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error.runId).toBe(id);
    expect(error.lastRun?.state).toBe('INPROGRESS');
    expect(error.elapsedMs).toBeGreaterThanOrEqual(190);
  });

  it('stops promptly when the signal aborts', async () => {
    const id = await created(['INPROGRESS']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expect(ctx.client.runs.wait(id, { pollInterval: 5_000, signal: controller.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('backs off between quiet polls up to the cap', async () => {
    const id = await created(['INPROGRESS']);
    await ctx.client.runs.wait(id, { pollInterval: 20, maxPollInterval: 80, timeout: 700 }).catch(() => undefined);
    const gets = ctx.server.requests.filter((r) => r.method === 'GET').map((r) => r.at);
    const gaps = gets.slice(1).map((t, i) => t - gets[i]!);
    expect(gaps[0]).toBeLessThan(60);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(75);
    // Capped: far fewer polls than at the first interval, far more than one.
    expect(gets.length).toBeGreaterThan(6);
    expect(gets.length).toBeLessThan(700 / 20);
  });

  it('honours Retry-After on a poll answer', async () => {
    const id = await created(['INPROGRESS', 'SUCCEEDED'], { 'retry-after': '1' });
    await ctx.client.runs.wait(id, fast);
    const gets = ctx.server.requests.filter((r) => r.method === 'GET' && !r.path.endsWith('/events'));
    expect(gets[1]!.at - gets[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('waits out a transient outage', async () => {
    const id = await created(['INPROGRESS', 'SUCCEEDED']);
    for (let i = 0; i < 4; i++) ctx.server.inject({ kind: 'status', status: 503, headers: { 'retry-after-ms': '5' } });
    const run = await ctx.client.runs.wait(id, fast);
    expect(run.state).toBe('SUCCEEDED');
    expect(ctx.server.requests.filter((r) => r.method === 'GET').length).toBeGreaterThanOrEqual(6);
  });

  it('throws at once for a run that does not exist', async () => {
    await expect(ctx.client.runs.wait('nope', fast)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('creates and waits, telling the caller the id first', async () => {
    let createdId = '';
    const run = await ctx.client.runs.createAndWait(
      { prompt: 'x' },
      {
        ...fast,
        onCreate: (c) => {
          createdId = c.run_id;
          ctx.server.script(c.run_id, ['INPROGRESS', 'SUCCEEDED']);
        },
      },
    );
    expect(run.run_id).toBe(createdId);
    expect(run.state).toBe('SUCCEEDED');
  });
});

describe('runs.follow', () => {
  const ctx = useFaultServer();

  async function created(states: Array<string | Record<string, unknown>>) {
    const { run_id } = await ctx.client.runs.create({ prompt: 'work' });
    ctx.server.script(run_id, states);
    return run_id;
  }

  it('marks a new state or status message as worth a line, and gives the session link once', async () => {
    const link = 'https://example.com/session/1';
    const id = await created([
      'QUEUED',
      { state: 'INPROGRESS', session_link: link, status_message: { message: 'cloning' } },
      { updated_at: '2030-01-01T00:00:00Z' },
      { status_message: { message: 'testing' } },
      { state: 'SUCCEEDED' },
    ]);
    const changes: RunChange[] = [];
    const outcome = await ctx.client.runs.follow(id, { ...fast, onChange: (c) => void changes.push(c) });
    expect(outcome.kind).toBe('finished');
    expect(changes.map((c) => [c.run.state, c.statusChanged])).toEqual([
      ['QUEUED', true],
      ['INPROGRESS', true],
      ['INPROGRESS', false],
      ['INPROGRESS', true],
      ['SUCCEEDED', true],
    ]);
    expect(changes.map((c) => c.newSessionLink)).toEqual([undefined, link, undefined, undefined, undefined]);
    if (outcome.kind === 'finished') expect(runHeadline(outcome.run)).toBe(`Run ${id} succeeded.`);
  });

  it('resolves a timeout and a stop as outcomes carrying the last run seen', async () => {
    const id = await created(['INPROGRESS']);
    const timedOut = await ctx.client.runs.follow(id, { ...fast, timeout: 150 });
    expect(timedOut).toMatchObject({ kind: 'timed-out', run: { state: 'INPROGRESS' } });
    const controller = new AbortController();
    const stopped = await ctx.client.runs.follow(id, { ...fast, signal: controller.signal, onChange: () => controller.abort() });
    expect(stopped).toMatchObject({ kind: 'stopped', run: { state: 'INPROGRESS' } });
  });
});

describe('runs.cancel', () => {
  const ctx = useFaultServer();
  it('resolves with the run id', async () => {
    const { run_id } = await ctx.client.runs.create({ prompt: 'x' });
    await expect(ctx.client.runs.cancel(run_id)).resolves.toBe(run_id);
    expect(ctx.server.runs[0]!.state).toBe('CANCELLED');
  });
});
