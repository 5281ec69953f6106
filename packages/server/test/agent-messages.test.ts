import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/start-test-server.js';

// The run-to-run mailbox and the lifecycle event feed, through the API (both stores in CI).
const KEYS = [
  { key: 'key-of-alice-123', principal: 'alice' },
  { key: 'key-of-bob-45678', principal: 'bob' },
];
const root = mkdtempSync(join(tmpdir(), 'agent-runs-messages-'));
let t: TestServer;
const servers: TestServer[] = [];
beforeAll(async () => {
  t = await startTestServer({ apiKeys: KEYS });
  servers.push(t);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});

const post = (s: TestServer, path: string, body?: unknown, key = KEYS[0]!.key) =>
  s.raw(`/api/v1${path}`, { method: 'POST', key, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const get = (s: TestServer, path: string, key = KEYS[0]!.key) => s.raw(`/api/v1${path}`, { key });

async function createRun(s: TestServer, prompt: string, key = KEYS[0]!.key): Promise<string> {
  const { status, body } = await post(s, '/agent/runs', { prompt }, key);
  expect(status).toBe(200);
  return body.run_id;
}

describe('the mailbox', () => {
  it('sends to several runs in order, lists an inbox, reads and marks delivered', async () => {
    // One slot, taken: the recipients wait QUEUED, so no agent marks a message delivered but the endpoint.
    const q = await startTestServer({ apiKeys: KEYS, concurrency: 1 });
    servers.push(q);
    const t = q;
    await createRun(t, '[simulate hang]');
    const [sender, a, b] = [await createRun(t, '[simulate hang]'), await createRun(t, '[simulate hang]'), await createRun(t, '[simulate hang]')];
    const sent = await post(t, '/agent/messages', { to: [a, b], subject: 'plan', body: 'do part one', sender_run_id: sender });
    expect(sent.status).toBe(200);
    expect(sent.body.message_ids).toHaveLength(2);
    const second = await post(t, '/agent/messages', { to: [a], subject: 'more', body: 'and part two', sender_run_id: sender });
    const [toA, toB] = sent.body.message_ids as string[];

    const inbox = await get(t, `/agent/messages/${a}`);
    expect(inbox.status).toBe(200);
    expect(inbox.body.map((m: { subject: string }) => m.subject)).toEqual(['plan', 'more']);
    expect(inbox.body[0]).toMatchObject({ message_id: toA, sender_run_id: sender, delivered_at: null, read_at: null });
    expect(inbox.body[0].body).toBeUndefined();
    expect((await get(t, `/agent/messages/${b}`)).body.map((m: { message_id: string }) => m.message_id)).toEqual([toB]);

    const read = await post(t, `/agent/messages/${toA}/read`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ message_id: toA, subject: 'plan', body: 'do part one' });
    expect(read.body.read_at).toEqual(expect.any(String));
    // A second read keeps the first read_at.
    expect((await post(t, `/agent/messages/${toA}/read`)).body.read_at).toBe(read.body.read_at);
    expect((await get(t, `/agent/messages/${a}?unread=true`)).body.map((m: { message_id: string }) => m.message_id)).toEqual([second.body.message_ids[0]]);
    expect((await get(t, `/agent/messages/${a}?limit=1`)).body).toHaveLength(1);
    expect((await get(t, `/agent/messages/${a}?since=2999-01-01T00:00:00Z`)).body).toEqual([]);

    expect((await post(t, `/agent/messages/${toB}/delivered`)).status).toBe(204);
    const [header] = (await get(t, `/agent/messages/${b}`)).body;
    expect(header.delivered_at).toEqual(expect.any(String));
    expect(header.read_at).toBeNull();
  });

  it('answers 422 naming the recipient that has ended, and sends to none', async () => {
    // Ended first: the runs that hang may take every slot.
    const ended = await createRun(t, '[simulate 10ms]');
    await expect.poll(async () => (await get(t, `/agent/runs/${ended}`)).body.state, { timeout: 10_000 }).toBe('SUCCEEDED');
    const sender = await createRun(t, '[simulate hang]');
    const live = await createRun(t, '[simulate hang]');
    const answer = await post(t, '/agent/messages', { to: [live, ended], subject: 's', body: 'b', sender_run_id: sender });
    expect(answer.status).toBe(422);
    expect(answer.body.issues).toEqual([{ path: 'to[1]', message: expect.stringContaining('has ended (SUCCEEDED)') }]);
    expect((await get(t, `/agent/messages/${live}`)).body).toEqual([]);
    for (const id of [sender, live]) await post(t, `/agent/runs/${id}/cancel`);
  });

  it('keeps another principal’s runs and messages out of sight: 404, as if they did not exist', async () => {
    const bob = KEYS[1]!.key;
    const mine = await createRun(t, '[simulate hang]');
    const other = await createRun(t, '[simulate hang]');
    const theirs = await createRun(t, '[simulate hang]', bob);
    const sent = await post(t, '/agent/messages', { to: [other], subject: 's', body: 'secret', sender_run_id: mine });
    const id = sent.body.message_ids[0];

    const toTheirs = await post(t, '/agent/messages', { to: [theirs], subject: 's', body: 'b', sender_run_id: mine });
    expect(toTheirs.status).toBe(404);
    expect((await post(t, '/agent/messages', { to: [other], subject: 's', body: 'b', sender_run_id: theirs })).status).toBe(404);
    // The same answer as for a run that does not exist.
    expect((await post(t, '/agent/messages', { to: ['no-such-run'], subject: 's', body: 'b', sender_run_id: mine })).status).toBe(404);
    expect((await get(t, `/agent/messages/${other}`, bob)).status).toBe(404);
    const read = await post(t, `/agent/messages/${id}/read`, undefined, bob);
    expect(read.status).toBe(404);
    expect(JSON.stringify(read.body)).not.toContain(other);
    expect((await post(t, `/agent/messages/${id}/delivered`, undefined, bob)).status).toBe(404);
    expect((await get(t, `/agent/events?run_ids=${other}`, bob)).status).toBe(404);
    expect((await post(t, `/agent/events/${other}`, { event_type: 'run_failed' }, bob)).status).toBe(404);
    // Unread still, for its owner.
    expect((await get(t, `/agent/messages/${other}`)).body[0].read_at).toBeNull();
    await post(t, `/agent/runs/${theirs}/cancel`, undefined, bob);
    for (const run of [mine, other]) await post(t, `/agent/runs/${run}/cancel`);
  });

  it.each([
    [{ to: [], subject: 's', body: 'b', sender_run_id: 'r' }, 'to', /at least one recipient/],
    [{ to: ['r'], subject: 'x'.repeat(1025), body: 'b', sender_run_id: 'r' }, 'subject', /at most 1024 characters/],
    [{ to: ['r'], subject: 's', body: 'x'.repeat(131_073), sender_run_id: 'r' }, 'body', /at most 131072 characters \(128 KiB\)/],
    [{ to: ['r'], subject: 's', body: 'b' }, 'sender_run_id', /run id/],
    [{ to: ['r'], subject: 's', body: 'b', sender_run_id: 'r', extra: 1 }, 'extra', /not a known field/],
  ])('refuses a send of %# with a 400 naming the field', async (body, path, message) => {
    const answer = await post(t, '/agent/messages', body);
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual(expect.arrayContaining([{ path, message: expect.stringMatching(message) }]));
  });

  it('takes a body of exactly 128 KiB', async () => {
    const [sender, to] = [await createRun(t, '[simulate hang]'), await createRun(t, '[simulate hang]')];
    const body = 'é'.repeat(131_072);
    const sent = await post(t, '/agent/messages', { to: [to], subject: 's'.repeat(1024), body, sender_run_id: sender });
    expect(sent.status).toBe(200);
    expect((await post(t, `/agent/messages/${sent.body.message_ids[0]}/read`)).body.body).toBe(body);
    for (const run of [sender, to]) await post(t, `/agent/runs/${run}/cancel`);
  });

  it.each([
    ['limit=101', 'limit', /from 1 to 100/],
    ['limit=0', 'limit', /from 1 to 100/],
    ['unread=yes', 'unread', /true or false/],
    ['since=yesterday', 'since', /RFC 3339/],
    ['colour=red', 'colour', /not a known field/],
  ])('refuses an inbox query %s with a 400 naming it', async (query, path, message) => {
    const run = await createRun(t, '[simulate 10ms]');
    const answer = await get(t, `/agent/messages/${run}?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([{ path, message: expect.stringMatching(message) }]);
  });
});

describe('a full inbox', () => {
  it('drops its oldest read message for a new one, and refuses one when all 1,000 are unread', async () => {
    const [sender, to] = [await createRun(t, '[simulate hang]'), await createRun(t, '[simulate hang]')];
    const send = (subject: string) => post(t, '/agent/messages', { to: [to], subject, body: 'b', sender_run_id: sender });
    const ids: string[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => send(`m${batch * 50 + i}`)));
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        ids.push(answer.body.message_ids[0]);
      }
    }
    const full = await send('one too many');
    expect(full.status).toBe(422);
    expect(full.body.issues).toEqual([{ path: 'to[0]', message: expect.stringContaining('is full (1000 messages') }]);
    const oldest = (await get(t, `/agent/messages/${to}?limit=1`)).body[0].message_id;
    expect((await post(t, `/agent/messages/${oldest}/read`)).status).toBe(200);
    expect((await send('fits now')).status).toBe(200);
    expect((await get(t, `/agent/messages/${to}?limit=1`)).body[0].message_id).not.toBe(oldest);
    expect((await post(t, `/agent/messages/${oldest}/read`)).status).toBe(404);
    for (const run of [sender, to]) await post(t, `/agent/runs/${run}/cancel`);
  }, 60_000);
});

describe('a message to a running command agent', () => {
  it('reaches its inbox file at once, and is marked delivered', async () => {
    const script = join(root, 'inbox-agent.sh');
    // Waits for a line in its inbox and answers with it.
    writeFileSync(
      script,
      `#!/bin/sh
cat > /dev/null
echo ready
i=0
while [ ! -s "$AGENT_RUNS_INBOX_FILE" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
line=$(head -n 1 "$AGENT_RUNS_INBOX_FILE" | sed 's/"/\\\\"/g')
echo "{\\"type\\":\\"RESULT\\",\\"message\\":\\"$line\\"}" >> "$AGENT_RUNS_REPORT_FILE"
`,
    );
    const c = await startTestServer({ executor: 'command', command: `sh '${script}'`, workDir: join(root, 'work') });
    servers.push(c);
    const sender = (await c.client.runs.create({ prompt: 'Send' })).run_id;
    const { run_id } = await c.client.runs.create({ prompt: 'Wait for a message' });
    await expect.poll(async () => (await c.client.runs.output(run_id)).text, { timeout: 10_000 }).toContain('ready');
    const sent = await c.client.messages.send({ to: [run_id], subject: 'hello', body: 'from your parent', sender_run_id: sender });
    const run = await c.client.runs.wait(run_id, { pollInterval: 20 });
    const line = JSON.parse(run.status_message!.message!);
    expect(line).toMatchObject({ id: sent.message_ids[0], kind: 'agent_message', sender_run_id: sender, subject: 'hello', message: 'from your parent' });
    const [header] = await c.client.messages.list(run_id);
    expect(header!.delivered_at).toEqual(expect.any(String));
    expect(header!.read_at).toBeNull();
  });
});

describe('the event feed', () => {
  it('answers the events of the watched runs after a sequence, in order, without the others', async () => {
    const [a, b, other, sender] = [
      await createRun(t, '[simulate hang]'),
      await createRun(t, '[simulate hang]'),
      await createRun(t, '[simulate hang]'),
      await createRun(t, '[simulate hang]'),
    ];
    const first = await post(t, `/agent/events/${a}`, { event_type: 'run_in_progress', execution_id: 'x1' });
    expect(first.status).toBe(200);
    await post(t, `/agent/events/${other}`, { event_type: 'run_in_progress' });
    const sent = await post(t, '/agent/messages', { to: [b], subject: 's', body: 'b', sender_run_id: sender });
    const last = await post(t, `/agent/events/${a}`, { event_type: 'run_succeeded', ref_id: 'r1' });
    expect(last.body.sequence).toBeGreaterThan(first.body.sequence);

    const all = await get(t, `/agent/events?run_ids=${a}&run_ids=${b}&since=${first.body.sequence - 1}`);
    expect(all.status).toBe(200);
    expect(all.body.map((e: { run_id: string; event_type: string }) => [e.run_id, e.event_type])).toEqual([
      [a, 'run_in_progress'],
      [b, 'new_message'],
      [a, 'run_succeeded'],
    ]);
    expect(all.body[0]).toMatchObject({ execution_id: 'x1', ref_id: null, sequence: first.body.sequence, occurred_at: expect.any(String) });
    expect(all.body[1].ref_id).toBe(sent.body.message_ids[0]);
    // Resuming after the first: the rest, once each; comma-separated ids read alike.
    const rest = await get(t, `/agent/events?run_ids=${a},${b}&since=${first.body.sequence}`);
    expect(rest.body.map((e: { sequence: number }) => e.sequence)).toEqual(all.body.slice(1).map((e: { sequence: number }) => e.sequence));
    expect((await get(t, `/agent/events?run_ids=${a}&run_ids=${b}&since=${last.body.sequence}`)).body).toEqual([]);
    expect((await get(t, `/agent/events?run_ids=${a}&run_ids=${b}&since=${first.body.sequence - 1}&limit=1`)).body).toHaveLength(1);
    for (const run of [a, b, other, sender]) await post(t, `/agent/runs/${run}/cancel`);
  });

  it('resumes from a sequence across a restart, without loss or duplicates, and keeps the messages', async () => {
    const dataDir = join(root, 'restart-data');
    const before = await startTestServer({ storage: 'file', dataDir, apiKeys: KEYS, concurrency: 1 });
    const run = await createRun(before, '[simulate hang]');
    const queued = await createRun(before, '[simulate 10ms]');
    const first = (await post(before, `/agent/events/${run}`, { event_type: 'run_in_progress' })).body.sequence;
    const sent = await post(before, '/agent/messages', { to: [queued], subject: 'kept', body: 'across', sender_run_id: run });
    await before.close();
    const after = await startTestServer({ storage: 'file', dataDir, apiKeys: KEYS, concurrency: 1 });
    servers.push(after);
    const later = (await post(after, `/agent/events/${queued}`, { event_type: 'run_blocked' })).body.sequence;
    expect(later).toBeGreaterThan(first);
    const events = (await get(after, `/agent/events?run_ids=${run},${queued}&since=${first}`)).body;
    expect(events.map((e: { event_type: string; run_id: string }) => [e.run_id, e.event_type])).toEqual([
      [queued, 'new_message'],
      [queued, 'run_blocked'],
    ]);
    expect((await post(after, `/agent/messages/${sent.body.message_ids[0]}/read`)).body.body).toBe('across');
  });

  it.each([
    ['', 'run_ids', /required/],
    ['run_ids=RUN&since=-1', 'since', /sequence number/],
    ['run_ids=RUN&limit=501', 'limit', /from 1 to 500/],
    ['run_ids=RUN&cursor=1', 'cursor', /not a parameter/],
  ])('refuses a poll %s with a 400 naming it', async (query, path, message) => {
    const run = await createRun(t, '[simulate 10ms]');
    const answer = await get(t, `/agent/events?${query.replace('RUN', run)}`);
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([{ path, message: expect.stringMatching(message) }]);
  });

  it('refuses a report of an unknown event type, naming the valid ones', async () => {
    const run = await createRun(t, '[simulate 10ms]');
    const answer = await post(t, `/agent/events/${run}`, { event_type: 'run_exploded' });
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([{ path: 'event_type', message: expect.stringContaining('run_in_progress, run_succeeded') }]);
  });
});
