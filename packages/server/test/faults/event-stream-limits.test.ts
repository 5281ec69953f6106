import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeAgentCommand } from '../support/node-agent.js';
import { readSse } from '../support/read-sse.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** What this process holds in JS objects and buffers, after a full collection. */
const heldBytes = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

const KEYS = [
  { key: 'key-of-alice-123', principal: 'alice' },
  { key: 'key-of-bob-45678', principal: 'bob' },
];
const OUTPUT_MB = 8;
const READERS = 16;
// An agent that prints 8 MB as fast as it can.
const printer = `const line = 'x'.repeat(1023) + '\\n'; for (let i = 0; i < ${OUTPUT_MB} * 1024; i++) process.stdout.write(line);`;

/** A raw GET of an event stream whose reader never reads (the socket is paused at once). */
function stuckReader(url: string, key: string, lastEventId?: number): Promise<Socket> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nauthorization: Bearer ${key}\r\naccept: text/event-stream\r\nconnection: close\r\n` +
          `${lastEventId === undefined ? '' : `last-event-id: ${lastEventId}\r\n`}\r\n`,
      );
      socket.pause();
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Reads what a paused socket holds until the server closes it. */
function drainUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('close', () => resolve(text));
    socket.resume();
  });
}

describe('event streams whose readers never read', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      // SQLite in a file, also under AGENT_RUNS_TEST_STORAGE=postgres: the heap measured is
      // this process's, and PostgreSQL's replays of 16 streams at once hold their batches
      // in it for longer than the measure waits.
      dataDir: mkdtempSync(join(tmpdir(), 'agent-runs-streams-')),
      storage: 'file',
      apiKeys: KEYS,
      executor: 'command',
      command: nodeAgentCommand(printer),
      outputLimitBytes: 32 * 1024 * 1024,
      eventStreams: { slowReaderMs: 4000, perPrincipal: READERS },
    });
  });
  afterAll(() => t.close());

  // Reproduction: 16 streams of a run with 8 MB of output (more than the sockets take), none of them read.
  it('hold a bounded amount each, are disconnected, and resume with Last-Event-ID', { timeout: 60_000 }, async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Print a lot' });
    expect((await t.client.runs.wait(run_id, { pollInterval: 100 })).state).toBe('SUCCEEDED');
    const url = `${t.server.baseURL}/agent/runs/${run_id}/events`;
    const before = heldBytes();
    const sockets = await Promise.all(Array.from({ length: READERS }, () => stuckReader(url, 'key-of-alice-123')));
    // Long enough for each stream to fill its socket and stop; shorter than the slow-reader limit.
    await new Promise((r) => setTimeout(r, 2500));
    const grown = heldBytes() - before;
    expect(grown / READERS).toBeLessThan(256 * 1024);

    // Past the slow-reader limit the server lets the stuck readers go (a paused socket cannot
    // see that until it reads): their places free, a new stream of the principal is taken.
    await expect.poll(async () => (await readSse(url, { authorization: 'Bearer key-of-alice-123' }).then((s) => (s.stop(), s.status))), { timeout: 40_000, interval: 250 }).toBe(200);
    // One reads what it got and resumes from its last id.
    const texts = await Promise.all(sockets.map(drainUntilClosed));
    const ids = [...texts[0]!.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(texts[0]).not.toMatch(/"state":"SUCCEEDED"/);
    const lastId = ids.at(-1)!;
    const resumed = await readSse(url, { authorization: 'Bearer key-of-alice-123', 'last-event-id': String(lastId) });
    await resumed.ended;
    expect(resumed.events[0]!.id).toBe(lastId + 1);
    expect(resumed.events.at(-1)).toMatchObject({ event: 'run', data: { state: 'SUCCEEDED' } });
  });
});

describe('event streams per principal and per session link', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ apiKeys: KEYS, eventStreams: { perPrincipal: 3, perSessionLink: 2 } });
  });
  afterAll(() => t.close());

  // Reproduction: one key, or one session link, opening stream after stream.
  it('are capped with 429 and Retry-After; another principal still gets its own', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Hang [simulate hang]' });
    const url = `${t.server.baseURL}/agent/runs/${run_id}/events`;
    const alice = { authorization: 'Bearer key-of-alice-123' };
    const open = await Promise.all([readSse(url, alice), readSse(url, alice), readSse(url, alice)]);
    expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
    const refused = await fetch(url, { headers: alice });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/event streams/);
    // Bob's run, Bob's streams.
    const bobs = await t.raw('/api/v1/agent/runs', { key: 'key-of-bob-45678', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"x [simulate hang]"}' });
    const bob = await readSse(`${t.server.baseURL}/agent/runs/${bobs.body.run_id}/events`, { authorization: 'Bearer key-of-bob-45678' });
    expect(bob.status).toBe(200);
    // A stream closed frees its place.
    open[0]!.stop();
    await expect.poll(async () => (await readSse(url, alice).then((s) => (s.stop(), s.status))), { timeout: 5000 }).toBe(200);

    const link = new URL((await t.raw(`/api/v1/agent/runs/${bobs.body.run_id}`, { key: 'key-of-bob-45678' })).body.session_link);
    link.pathname += '/events';
    const page = await Promise.all([readSse(link.href), readSse(link.href)]);
    expect(page.map((s) => s.status)).toEqual([200, 200]);
    expect((await fetch(link.href)).status).toBe(429);
    for (const s of [...open, ...page, bob]) s.stop();
  });
});

describe('a stream resumed with a Last-Event-ID beyond the log', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  // Reproduction: a made-up id far past the run's last event.
  it('ends when the run ends, with the run’s end', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Short [simulate 800ms]' });
    const stream = await readSse(`${t.server.baseURL}/agent/runs/${run_id}/events`, { authorization: `Bearer ${t.server.apiKey}`, 'last-event-id': '999999' });
    await stream.until((events) => events.some((e) => e.event === 'run' && e.data.state === 'SUCCEEDED'), 15_000);
    await stream.ended;
  });

  it('ends at once for a run already over', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Shorter [simulate 10ms]' });
    await t.client.runs.wait(run_id, { pollInterval: 20 });
    const stream = await readSse(`${t.server.baseURL}/agent/runs/${run_id}/events`, { authorization: `Bearer ${t.server.apiKey}`, 'last-event-id': '999999' });
    await Promise.race([stream.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the stream did not end')), 10_000))]);
  });
});
