import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, BadRequestError, ConversationResponseSchema, NotFoundError, RunItemSchema } from '@agent-runs/core';
import { SqliteRunStore } from '../src/store/runs/sqlite-run-store.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const hello = Buffer.from('hello agent').toString('base64');

describe('the new create fields', () => {
  let t: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-fields-'));
    t = await startTestServer({ storage: 'file', dataDir, simulatedDurationMs: 20 });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores metadata, conversation, parent, mode, interactive and identity and shows them on the run', async () => {
    const parent = await t.client.runs.create({ prompt: 'parent' });
    // The named agent must exist: identities are checked since the server keeps them.
    const agent = await t.client.identities.create({ name: 'agent-7' });
    // The conversation must exist: one of the caller's runs started it.
    const conversation = (await t.client.runs.get((await t.client.runs.create({ prompt: 'start' })).run_id)).conversation_id!;
    const created = await t.client.runs.create({
      prompt: 'child',
      metadata: { team: 'core', ticket: 'A-1' },
      mode: 'plan',
      interactive: true,
      conversation_id: conversation,
      parent_run_id: parent.run_id,
      agent_identity_uid: agent.uid,
    });
    const run = await t.client.runs.get(created.run_id);
    expect(RunItemSchema.safeParse(run).success).toBe(true);
    expect(run).toMatchObject({ metadata: { team: 'core', ticket: 'A-1' }, conversation_id: conversation, parent_run_id: parent.run_id });
  });

  it('gives a run without conversation_id a conversation of its own', async () => {
    const a = await t.client.runs.get((await t.client.runs.create({ prompt: 'a' })).run_id);
    const b = await t.client.runs.get((await t.client.runs.create({ prompt: 'b' })).run_id);
    expect(a.conversation_id).toBeTruthy();
    expect(a.conversation_id).not.toBe(b.conversation_id);
  });

  it('answers 400 naming parent_run_id when it names no run, as the SDK documents', async () => {
    const error = await t.client.runs.create({ prompt: 'x', parent_run_id: 'no-such-run' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).detail).toMatch(/parent_run_id: no run with id "no-such-run"/);
  });

  it('answers 400 naming conversation_id when it names no conversation', async () => {
    const res = await t.raw('/api/v1/agent/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x', conversation_id: 'nope' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'conversation_id', message: expect.stringMatching(/no conversation "nope"/) }]);
  });

  it('reports the run’s own conversation id on its conversation, one the redirect knows', async () => {
    const run = await t.client.runs.get((await t.client.runs.create({ prompt: 'talk' })).run_id);
    const { body } = await t.raw(`/api/v1/agent/runs/${run.run_id}/conversation`);
    expect(body.conversation_id).toBe(run.conversation_id);
    expect(body.conversation_id).not.toBe(run.run_id);
    expect((await t.raw(`/api/v1/agent/conversations/${body.conversation_id}/redirect`)).body).toEqual({ session_id: run.session_id });
  });

  it('refuses six attachments, naming the field, even from a caller that skips the client’s checks', async () => {
    const file = { file_name: 'a.txt', mime_type: 'text/plain', data: hello };
    const res = await t.raw('/api/v1/agent/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'p', attachments: Array.from({ length: 6 }, () => file) }),
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/attachments: must have at most 5 files/);
  });

  it('stores attachments decoded, in order, for the agent', async () => {
    const created = await t.client.runs.create({
      prompt: 'read the files',
      attachments: [
        { file_name: 'a.txt', mime_type: 'text/plain', data: hello },
        { file_name: 'b.png', mime_type: 'image/png', data: Buffer.from([137, 80, 78, 71]).toString('base64') },
      ],
    });
    // A second handle on the same file, as another process would open it (WAL allows it).
    const store = new SqliteRunStore(join(dataDir, 'runs.sqlite'));
    try {
      const files = await store.getAttachments(created.run_id);
      expect(files.map((f) => [f.fileName, f.mimeType])).toEqual([
        ['a.txt', 'text/plain'],
        ['b.png', 'image/png'],
      ]);
      expect(files[0]!.data.toString()).toBe('hello agent');
      expect([...files[1]!.data]).toEqual([137, 80, 78, 71]);
    } finally {
      await store.close();
    }
  });

  it('answers POST /agent/run and POST /agent/runs alike', async () => {
    for (const path of ['/api/v1/agent/run', '/api/v1/agent/runs']) {
      const res = await t.raw(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"p","mode":"orchestrate"}' });
      expect(res.status).toBe(200);
      expect(res.body.state).toBe('QUEUED');
    }
  });
});

describe('list filters of the newest service', () => {
  let t: TestServer;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestServer({ simulatedDurationMs: 20 });
    ids.root = (await t.client.runs.create({ prompt: 'root', metadata: { team: 'core', env: 'ci' } })).run_id;
    ids.child = (await t.client.runs.create({ prompt: 'child', parent_run_id: ids.root, metadata: { team: 'core' } })).run_id;
    ids.grandchild = (await t.client.runs.create({ prompt: 'grandchild', parent_run_id: ids.child })).run_id;
    ids.other = (await t.client.runs.create({ prompt: 'other', metadata: { team: 'web' } })).run_id;
  });
  afterAll(async () => t?.close());

  const listed = async (query: Parameters<TestServer['client']['runs']['list']>[0]) =>
    (await t.client.runs.list({ ...query, sort_by: 'created_at', sort_order: 'asc' })).runs.map((r) => r.run_id);

  it('filters on every metadata pair given', async () => {
    expect(await listed({ metadata: { team: 'core' } })).toEqual([ids.root, ids.child]);
    expect(await listed({ metadata: { team: 'core', env: 'ci' } })).toEqual([ids.root]);
    expect(await listed({ metadata: { team: 'nobody' } })).toEqual([]);
  });

  it('lists a run and its descendants by ancestor_run_id', async () => {
    expect(await listed({ ancestor_run_id: ids.child! })).toEqual([ids.child, ids.grandchild]);
    expect(await listed({ ancestor_run_id: ids.root! })).toEqual([ids.root, ids.child, ids.grandchild]);
  });

  it('matches the executor, who is the creator here', async () => {
    const me = (await t.client.runs.get(ids.root!)).creator!.uid!;
    expect(await listed({ executor: me })).toEqual(await listed({}));
    expect(await listed({ executor: 'someone-else' })).toEqual([]);
  });

  it('lists the runs that produced an artifact of a type', async () => {
    const made = await t.client.runs.create({ prompt: 'open a PR [simulate artifact pr]' });
    await t.client.runs.wait(made.run_id, { pollInterval: 20, timeout: 15_000 });
    expect(await listed({ artifact_type: 'PULL_REQUEST' })).toEqual([made.run_id]);
    expect(await listed({ artifact_type: 'SCREENSHOT' })).toEqual([]);
  });

  it('answers LOCAL with every run and an empty page where it has no such data', async () => {
    expect(await listed({ execution_location: 'LOCAL', q: 'o' })).toEqual(await listed({ q: 'o' }));
    for (const query of [
      { execution_location: 'REMOTE' as const },
      { schedule_id: 's1' },
      { automation_id: 'a1' },
      { factory_uid: 'f1' },
    ]) {
      expect(await listed(query)).toEqual([]);
    }
  });

  it('names an unknown parameter in the contract’s words', async () => {
    const res = await t.raw('/api/v1/agent/runs?colour=red');
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/colour/);
  });
});

describe('session and conversation redirects', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ simulatedDurationMs: 20 });
  });
  afterAll(async () => t?.close());

  it('maps a session to its conversation and a conversation to its newest session', async () => {
    const first = await t.client.runs.get((await t.client.runs.create({ prompt: 'a' })).run_id);
    const conversation = first.conversation_id!;
    const second = await t.client.runs.get((await t.client.runs.create({ prompt: 'b', conversation_id: conversation })).run_id);
    expect(await t.client.sessions.checkRedirect(first.session_id!)).toEqual({ conversation_id: conversation });
    expect(await t.client.conversations.checkRedirect(conversation)).toEqual({ session_id: second.session_id });
  });

  it('answers both redirects without a key, as SDK 1.4 calls them', async () => {
    const run = await t.client.runs.get((await t.client.runs.create({ prompt: 'a' })).run_id);
    const session = await t.raw(`/api/v1/agent/sessions/${run.session_id}/redirect`, { key: null });
    expect(session).toMatchObject({ status: 200, body: { conversation_id: run.conversation_id } });
    const conversation = await t.raw(`/api/v1/agent/conversations/${run.conversation_id}/redirect`, { key: null });
    expect(conversation).toMatchObject({ status: 200, body: { session_id: run.session_id } });
    expect(Object.keys(conversation.body)).toEqual(['session_id']);
    // Still behind the origin guard: a page of another site is refused.
    const crossSite = await t.raw(`/api/v1/agent/sessions/${run.session_id}/redirect`, { key: null, headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
  });

  it('gives a conversation’s messages across its runs (GET /agent/conversations/{id})', async () => {
    const first = await t.client.runs.get((await t.client.runs.create({ prompt: 'first ask' })).run_id);
    await t.client.runs.wait(first.run_id, { pollInterval: 20, timeout: 15_000 });
    const second = await t.client.runs.create({ prompt: 'second ask', conversation_id: first.conversation_id! });
    await t.client.runs.wait(second.run_id, { pollInterval: 20, timeout: 15_000 });
    const got = await t.client.conversations.get(first.conversation_id!);
    expect(ConversationResponseSchema.safeParse(got).error).toBeUndefined();
    expect(got.conversation_id).toBe(first.conversation_id);
    const said = got.steps.map((step) => step.messages.map((m) => `${m.role}: ${(m.content[0] as { text: string }).text}`)[0]);
    expect(said).toEqual(['user: first ask', 'user: second ask']);
    await expect(t.client.conversations.get('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('continues a conversation given only its conversation_id, with its last instruction', async () => {
    const first = await t.client.runs.get((await t.client.runs.create({ prompt: 'Summarise the notes' })).run_id);
    const handoff = await t.client.runs.create({ conversation_id: first.conversation_id! });
    const run = await t.client.runs.get(handoff.run_id);
    expect(run).toMatchObject({ prompt: 'Summarise the notes', conversation_id: first.conversation_id });
    expect((await t.client.runs.wait(run.run_id, { pollInterval: 20, timeout: 15_000 })).state).toBe('SUCCEEDED');
  });

  it('answers 404 for a session or conversation it does not know', async () => {
    await expect(t.client.sessions.checkRedirect('nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(t.client.conversations.checkRedirect('nope')).rejects.toBeInstanceOf(NotFoundError);
  });
});

/** A server with two principals: `t.client` is Alice's key, `bob` Bob's. Read its fields inside tests: they are set once the server starts. */
function aliceAndBob(options: { sharedRuns: boolean }): { readonly t: TestServer; readonly bob: AgentRunsClient } {
  const both = {} as { t: TestServer; bob: AgentRunsClient };
  beforeAll(async () => {
    both.t = await startTestServer({
      simulatedDurationMs: 20,
      sharedRuns: options.sharedRuns,
      apiKeys: [
        { key: 'key-of-alice-123', principal: 'alice' },
        { key: 'key-of-bob-45678', principal: 'bob' },
      ],
    });
    both.bob = new AgentRunsClient({ baseURL: both.t.server.baseURL, apiKey: 'key-of-bob-45678', maxRetries: 0 });
  });
  afterAll(async () => {
    await both.bob?.close();
    await both.t?.close();
  });
  return both;
}

describe('another principal’s runs stay unknown', () => {
  const two = aliceAndBob({ sharedRuns: false });

  it('as a parent or a conversation', async () => {
    const alices = await two.t.client.runs.get((await two.t.client.runs.create({ prompt: 'mine' })).run_id);
    await expect(two.bob.runs.create({ prompt: 'x', parent_run_id: alices.run_id })).rejects.toBeInstanceOf(BadRequestError);
    // Bob can neither continue Alice's conversation nor read it: the same answer as for an unknown one.
    const taken = await two.bob.runs.create({ prompt: 'x', conversation_id: alices.conversation_id! }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(BadRequestError);
    expect((taken as BadRequestError).detail).toMatch(/conversation_id: no conversation/);
    await expect(two.bob.conversations.get(alices.conversation_id!)).rejects.toBeInstanceOf(NotFoundError);
    // The keyless redirects map one unguessable id to another, and to nothing more.
    expect(await two.bob.sessions.checkRedirect(alices.session_id!)).toEqual({ conversation_id: alices.conversation_id });
  });
});

describe('a conversation stays its owner’s', () => {
  const two = aliceAndBob({ sharedRuns: true });

  it('redirects to the owner’s newest run whatever another key added later', async () => {
    const alices = await two.t.client.runs.get((await two.t.client.runs.create({ prompt: 'mine' })).run_id);
    // Runs are shared here, so Bob may add to Alice's conversation.
    await two.bob.runs.create({ prompt: 'also mine', conversation_id: alices.conversation_id! });
    const res = await two.t.raw(`/api/v1/agent/conversations/${alices.conversation_id}/redirect`, { key: null });
    expect(res).toMatchObject({ status: 200, body: { session_id: alices.session_id } });
  });
});
