import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';
import { outputText, readSse, type SseEvent } from './support/read-sse.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

// A real command agent that prints a numbered line, then waits, five times.
const SLOW_AGENT = 'for i in 1 2 3 4 5; do echo "line $i"; sleep 0.4; done; echo "done" >&2';
const EXPECTED = 'line 1\nline 2\nline 3\nline 4\nline 5\ndone\n';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ executor: 'command', command: SLOW_AGENT, concurrency: 4, heartbeatMs: 100 });
});
afterAll(() => t.close());

const auth = () => ({ authorization: `Bearer ${t.server.apiKey}` });
const eventsUrl = (runId: string, query = '') => `${t.server.baseURL}/agent/runs/${runId}/events${query}`;
const ids = (events: SseEvent[]) => events.filter((e) => e.id !== undefined).map((e) => e.id!);

async function start(prompt = 'print lines'): Promise<string> {
  return (await t.client.runs.create({ prompt })).run_id;
}

describe('GET /agent/runs/{runId}/events', () => {
  it('streams each line as the agent prints it, then the terminal run event, then ends', async () => {
    const runId = await start();
    const stream = await readSse(eventsUrl(runId), auth());
    expect(stream.status).toBe(200);
    // The first line arrives while the agent still has lines to print.
    await stream.until((events) => outputText(events).includes('line 1'));
    expect(stream.events.some((e) => e.event === 'run' && e.data.state === 'SUCCEEDED')).toBe(false);
    await stream.ended;
    const { events } = stream;
    expect(outputText(events)).toBe(EXPECTED);
    const lines = events.filter((e) => e.event === 'output' && e.data.text.startsWith('line'));
    // Printed 400 ms apart, so no two lines came in one event and each was seen before the next was printed.
    expect(lines.map((e) => e.data.text)).toEqual(['line 1\n', 'line 2\n', 'line 3\n', 'line 4\n', 'line 5\n']);
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.at).toBeGreaterThan(lines[i - 1]!.at);
    expect(events.find((e) => e.data.text === 'done\n')?.data.stream).toBe('stderr');
    expect(events.filter((e) => e.event === 'run').map((e) => e.data.state)).toEqual(['QUEUED', 'INPROGRESS', 'SUCCEEDED']);
    expect(events.at(-1)).toMatchObject({ event: 'run', data: { state: 'SUCCEEDED', run_id: runId } });
    const seen = ids(events);
    expect(seen).toEqual(seen.map((_, i) => i + 1));
  });

  it('resumes after a dropped connection from Last-Event-ID, missing nothing and repeating nothing', async () => {
    const runId = await start();
    const first = await readSse(eventsUrl(runId), auth());
    await first.until((events) => outputText(events).includes('line 2'));
    first.stop();
    const lastId = ids(first.events).at(-1)!;
    await new Promise((r) => setTimeout(r, 500)); // the agent prints more while nobody listens
    const second = await readSse(eventsUrl(runId), { ...auth(), 'last-event-id': String(lastId) });
    await second.ended;
    const all = [...first.events, ...second.events];
    expect(ids(second.events)[0]).toBe(lastId + 1);
    expect(ids(all)).toEqual(ids(all).map((_, i) => i + 1));
    expect(outputText(all)).toBe(EXPECTED);
  });

  it('takes the resume point from ?last_event_id= too, the header winning when both are sent', async () => {
    const runId = await start();
    await t.client.runs.wait(runId, { pollInterval: 50 });
    const byQuery = await readSse(eventsUrl(runId, '?last_event_id=3'), auth());
    await byQuery.ended;
    expect(ids(byQuery.events)[0]).toBe(4);
    const both = await readSse(eventsUrl(runId, '?last_event_id=3'), { ...auth(), 'last-event-id': '6' });
    await both.ended;
    expect(ids(both.events)[0]).toBe(7);
  });

  it('ends at once for a finished run when the client has its last event', async () => {
    const runId = await start();
    const done = await readSse(eventsUrl(runId), auth());
    await done.ended;
    const again = await readSse(eventsUrl(runId), { ...auth(), 'last-event-id': String(ids(done.events).at(-1)) });
    await again.ended;
    expect(again.events).toEqual([]);
  });

  it('needs the API key, names a bad Last-Event-ID, and answers 404 for an unknown run', async () => {
    const runId = await start();
    expect((await t.raw(`/api/v1/agent/runs/${runId}/events`, { key: null })).status).toBe(401);
    const bad = await t.raw(`/api/v1/agent/runs/${runId}/events`, { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/Last-Event-ID/);
    expect((await t.raw('/api/v1/agent/runs/nope/events')).status).toBe(404);
    expect((await t.raw(`/api/v1/agent/runs/${runId}/output`, { key: null })).status).toBe(401);
    await t.client.runs.wait(runId, { pollInterval: 50 });
  });

  it('writes a comment heartbeat on an idle stream', async () => {
    const idle = await startTestServer({ heartbeatMs: 50 });
    try {
      const { run_id } = await idle.client.runs.create({ prompt: 'wait [simulate hang]' });
      const stream = await readSse(`${idle.server.baseURL}/agent/runs/${run_id}/events`, { authorization: `Bearer ${idle.server.apiKey}` });
      await stream.until(() => stream.comments >= 3);
      stream.stop();
      await idle.client.runs.cancel(run_id);
    } finally {
      await idle.close();
    }
  });
});

describe('GET /agent/runs/{runId}/output', () => {
  it('returns the stored output after an event id, in order, with its streams', async () => {
    const runId = await start();
    await t.client.runs.wait(runId, { pollInterval: 50 });
    const all = await t.raw(`/api/v1/agent/runs/${runId}/output`);
    expect(all.status).toBe(200);
    expect(all.body.chunks.map((c: { text: string }) => c.text).join('')).toBe(EXPECTED);
    expect(all.body.has_more).toBe(false);
    const later = await t.raw(`/api/v1/agent/runs/${runId}/output?since=${all.body.chunks[2].id}`);
    expect(later.body.chunks.map((c: { text: string }) => c.text).join('')).toBe('line 4\nline 5\ndone\n');
    expect(later.body.next_since).toBe(all.body.next_since);
    const bad = await t.raw(`/api/v1/agent/runs/${runId}/output?since=-1`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^since:/);
  });
});

describe('the output bound', () => {
  it('drops the oldest output past the bound and says so, in the output and at the start of a stream', async () => {
    // About 200 KB of numbered lines against a 64 KiB bound.
    const bounded = await startTestServer({
      executor: 'command',
      command: 'i=0; while [ $i -lt 4000 ]; do echo "line $i ........................................"; i=$((i+1)); done',
      outputLimitBytes: 64 * 1024,
    });
    try {
      const { run_id } = await bounded.client.runs.create({ prompt: 'much' });
      await bounded.client.runs.wait(run_id, { pollInterval: 50 });
      const page = await bounded.raw(`/api/v1/agent/runs/${run_id}/output`);
      const text = page.body.chunks.map((c: { text: string }) => c.text).join('');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024);
      expect(text).toMatch(/line 3999 \.+\n$/);
      expect(text).not.toMatch(/^line 0 /);
      expect(page.body.dropped.bytes).toBeGreaterThan(100_000);
      const stream = await readSse(`${bounded.server.baseURL}/agent/runs/${run_id}/events`, { authorization: `Bearer ${bounded.server.apiKey}` });
      await stream.ended;
      expect(stream.events[0]).toMatchObject({ id: undefined, event: 'run', data: { state: 'SUCCEEDED' } });
      expect(stream.events[1]).toMatchObject({ id: undefined, event: 'skipped', data: { through_id: page.body.dropped.through_id } });
      expect(stream.events[2]!.id).toBe(page.body.dropped.through_id + 1);
      expect(outputText(stream.events)).toBe(text);
      expect(stream.events.at(-1)).toMatchObject({ event: 'run', data: { state: 'SUCCEEDED' } });
    } finally {
      await bounded.close();
    }
  });
});

describe('kept across restarts', () => {
  it('keeps the output and event ids of a run after the server restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-events-'));
    try {
      const options = { dataDir, quiet: true, port: 0, executor: 'command' as const, command: 'echo one; echo two >&2' };
      let server = await startServer(options);
      const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
      const { run_id } = (await (await fetch(`${server.baseURL}/agent/run`, { method: 'POST', headers, body: '{"prompt":"x"}' })).json()) as { run_id: string };
      const before = await readSse(`${server.baseURL}/agent/runs/${run_id}/events`, headers);
      await before.ended;
      await server.close();
      server = await startServer(options);
      try {
        const after = await readSse(`${server.baseURL}/agent/runs/${run_id}/events`, headers);
        await after.ended;
        expect(after.events.map((e) => [e.id, e.event])).toEqual(before.events.map((e) => [e.id, e.event]));
        expect(outputText(after.events)).toBe('one\ntwo\n');
        const page = (await (await fetch(`${server.baseURL}/agent/runs/${run_id}/output`, { headers })).json()) as { chunks: { text: string }[] };
        expect(page.chunks.map((c) => c.text).join('')).toBe('one\ntwo\n');
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('ends the stream of a run a restart marked FAILED with that FAILED run', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-events-'));
    try {
      const options = { dataDir, quiet: true, port: 0, simulatedDurationMs: 60_000 };
      let server = await startServer(options);
      const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
      const { run_id } = (await (await fetch(`${server.baseURL}/agent/run`, { method: 'POST', headers, body: '{"prompt":"x [simulate hang]"}' })).json()) as { run_id: string };
      const live = await readSse(`${server.baseURL}/agent/runs/${run_id}/events`, headers);
      await live.until((events) => events.some((e) => e.data.state === 'INPROGRESS'));
      await server.close(); // marks it FAILED and ends the stream with that
      await live.ended;
      expect(live.events.at(-1)).toMatchObject({ event: 'run', data: { state: 'FAILED' } });
      server = await startServer(options);
      try {
        const after = await readSse(`${server.baseURL}/agent/runs/${run_id}/events`, { ...headers, 'last-event-id': String(live.events.at(-1)!.id) });
        await after.ended;
        expect(after.events).toEqual([]);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a run a follow-up takes on', () => {
  it('streams the follow-up and the next execution, leaving out the earlier end, and ends at the new one', async () => {
    const sim = await startTestServer();
    try {
      const { run_id } = await sim.client.runs.create({ prompt: 'First [simulate 20ms]' });
      await sim.client.runs.wait(run_id, { stream: false, pollInterval: 10 });
      const answer = await sim.raw(`/api/v1/agent/runs/${run_id}/followups`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Again [simulate 300ms]' }),
      });
      expect(answer.status).toBe(200);
      const stream = await readSse(`${sim.server.baseURL}/agent/runs/${run_id}/events`, { authorization: `Bearer ${sim.server.apiKey}` });
      await stream.ended;
      const names = stream.events.map((e) => (e.event === 'run' ? `run:${e.data.state}` : e.event));
      expect(names.filter((n) => n === 'run:SUCCEEDED')).toHaveLength(1);
      expect(names.at(-1)).toBe('run:SUCCEEDED');
      expect(names).toContain('followup');
      expect(stream.events.find((e) => e.event === 'followup')!.data).toMatchObject({ message: 'Again [simulate 300ms]' });
      expect(outputText(stream.events)).toMatch(/Execution 2/);
      expect(ids(stream.events)).toEqual([...ids(stream.events)].sort((a, b) => a - b));
    } finally {
      await sim.close();
    }
  });
});
