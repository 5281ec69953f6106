import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const root = mkdtempSync(join(tmpdir(), 'agent-runs-followups-'));
let sim: TestServer;
const servers: TestServer[] = [];
beforeAll(async () => {
  sim = await startTestServer({ concurrency: 1 });
  servers.push(sim);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});

const post = (t: TestServer, runId: string, body: unknown) =>
  t.raw(`/api/v1/agent/runs/${runId}/followups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function conversationTexts(t: TestServer, runId: string): Promise<string[][]> {
  const { body } = await t.raw(`/api/v1/agent/runs/${runId}/conversation`);
  return body.steps.map((s: { messages: { role: string; content: { text: string }[] }[] }) => s.messages.map((m) => `${m.role}: ${m.content[0]!.text}`));
}

describe('follow-ups by run state', () => {
  it('starts a QUEUED run with the follow-up already in its conversation', async () => {
    const blocker = await sim.client.runs.create({ prompt: '[simulate hang]' });
    const { run_id } = await sim.client.runs.create({ prompt: 'Write the docs [simulate 20ms]' });
    expect((await sim.client.runs.get(run_id)).state).toBe('QUEUED');
    const answer = await post(sim, run_id, { message: 'Also the changelog [simulate 20ms]' });
    expect(answer.body).toMatchObject({ state: 'QUEUED' });
    await sim.client.runs.cancel(blocker.run_id);
    const run = await sim.client.runs.wait(run_id, { pollInterval: 10 });
    expect(run.state).toBe('SUCCEEDED');
    // One execution answered both.
    expect(await conversationTexts(sim, run_id)).toEqual([
      ['user: Write the docs [simulate 20ms]', 'user: Also the changelog [simulate 20ms]', expect.stringMatching(/^assistant: The simulated agent answered/)],
    ]);
  });

  it('answers a follow-up to an INPROGRESS run that the execution did not take with a next execution', async () => {
    const { run_id } = await sim.client.runs.create({ prompt: 'Slow work [simulate 300ms]' });
    // INPROGRESS comes before the execution reads its follow-ups; its first output comes after.
    await expect.poll(async () => (await sim.raw(`/api/v1/agent/runs/${run_id}/output`)).body.chunks.length, { interval: 10 }).toBeGreaterThan(0);
    expect((await post(sim, run_id, { message: 'And fail this time [simulate fail 20ms]' })).body).toMatchObject({ state: 'INPROGRESS' });
    let run = await sim.client.runs.get(run_id);
    while (run.state !== 'FAILED') {
      await new Promise((r) => setTimeout(r, 20));
      run = await sim.client.runs.get(run_id);
    }
    expect(run.status_message?.message).toMatch(/failed/);
    expect((await conversationTexts(sim, run_id)).map((step) => step.length)).toEqual([2, 2]);
  });

  it('restarts a CANCELLED run with a new execution', async () => {
    const { run_id } = await sim.client.runs.create({ prompt: '[simulate hang]' });
    await sim.client.runs.cancel(run_id);
    const answer = await post(sim, run_id, { message: 'Try again, quickly [simulate 20ms]', mode: 'plan' });
    expect(answer.status).toBe(200);
    expect(answer.body.state).toBe('QUEUED');
    const run = await sim.client.runs.wait(run_id, { pollInterval: 10 });
    expect(run.state).toBe('SUCCEEDED');
  });

  it('makes the artifacts a [simulate artifact ...] directive names', async () => {
    const { run_id } = await sim.client.runs.create({ prompt: 'Ship it [simulate 20ms] [simulate artifact pr plan file screenshot reference]' });
    const run = await sim.client.runs.wait(run_id, { pollInterval: 10 });
    const artifacts = run.artifacts as { artifact_type: string; data: { artifact_uid?: string } }[];
    expect(artifacts.map((a) => a.artifact_type)).toEqual(['PULL_REQUEST', 'PLAN', 'FILE', 'SCREENSHOT', 'EXTERNAL_REFERENCE']);
    const plan = await sim.raw(`/api/v1/agent/artifacts/${artifacts[1]!.data.artifact_uid}`);
    expect(plan.body).toMatchObject({ artifact_type: 'PLAN', data: { title: 'Simulated plan', content_type: 'text/markdown' } });
    const shot = await sim.raw(`/api/v1/agent/artifacts/${artifacts[3]!.data.artifact_uid}`);
    const png = Buffer.from(await (await fetch(shot.body.data.download_url)).arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('follow-up and artifact errors', () => {
  it.each([
    [{ message: '' }, /^message: is required/],
    [{ message: '   ' }, /^message: is required/],
    [{}, /^message: is required/],
    [{ message: 'x', mode: 'fast' }, /^mode: .*normal.*plan.*orchestrate/],
    [{ message: 'x', extra: 1 }, /extra: is not a known field/],
    [{ message: 'x [simulate explode]' }, /message: unknown word "explode"/],
  ])('refuses %j with a 400 naming the field', async (body, detail) => {
    const { run_id } = await sim.client.runs.create({ prompt: 'x [simulate 10ms]' });
    const answer = await post(sim, run_id, body);
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toMatch(detail);
  });

  it('answers 404 for a run that does not exist, and for an unknown artifact', async () => {
    const followup = await post(sim, 'no-such-run', { message: 'hello' });
    expect(followup.status).toBe(404);
    expect(followup.body.detail).toContain('no-such-run');
    expect((await sim.raw('/api/v1/agent/runs/no-such-run/conversation')).status).toBe(404);
    expect((await sim.raw('/api/v1/agent/runs/no-such-run/transcript', { redirect: 'manual' })).status).toBe(404);
    expect((await sim.raw('/api/v1/agent/artifacts/no-such-artifact')).status).toBe(404);
  });

  it('refuses an unknown artifact directive word at create', async () => {
    const created = await sim.raw('/api/v1/agent/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: '[simulate artifact video]' }),
    });
    expect(created.status).toBe(400);
    expect(created.body.detail).toMatch(/unknown word "video" in the artifact directive/);
  });
});

describe('an INPROGRESS command agent', () => {
  it('gets a follow-up in its inbox, and one it takes needs no next execution', async () => {
    const script = join(root, 'inbox-agent.sh');
    // Waits for a line in the inbox, takes it, and reports it taken.
    writeFileSync(
      script,
      `#!/bin/sh
cat > /dev/null
echo ready
i=0
while [ ! -s "$AGENT_RUNS_INBOX_FILE" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
id=$(sed -n 's/.*"id":"\\([^"]*\\)".*/\\1/p' "$AGENT_RUNS_INBOX_FILE" | head -n 1)
echo "{\\"type\\":\\"FOLLOWUP_TAKEN\\",\\"id\\":\\"$id\\"}" >> "$AGENT_RUNS_REPORT_FILE"
echo '{"type":"RESULT","message":"took the follow-up"}' >> "$AGENT_RUNS_REPORT_FILE"
`,
    );
    const t = await startTestServer({ executor: 'command', command: `sh '${script}'`, workDir: join(root, 'work') });
    servers.push(t);
    const { run_id } = await t.client.runs.create({ prompt: 'Wait for me' });
    // Sent once the agent runs: one sent before it starts is in its follow-up file, not its inbox.
    await expect.poll(async () => (await t.client.runs.output(run_id)).text, { timeout: 10_000 }).toContain('ready');
    expect((await post(t, run_id, { message: 'Here is more' })).body.state).toBe('INPROGRESS');
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.status_message?.message).toBe('took the follow-up');
    expect(await conversationTexts(t, run_id)).toEqual([['user: Wait for me', 'user: Here is more', 'assistant: took the follow-up']]);
  });
});

describe('artifacts across a restart', () => {
  it('keeps a run’s artifacts and their bytes in the data directory', async () => {
    const dataDir = join(root, 'data');
    const first = await startTestServer({ storage: 'file', dataDir });
    const { run_id } = await first.client.runs.create({ prompt: '[simulate 10ms] [simulate artifact file]' });
    await first.client.runs.wait(run_id, { pollInterval: 10 });
    await first.close();
    const second = await startTestServer({ storage: 'file', dataDir });
    servers.push(second);
    const run = await second.client.runs.get(run_id);
    const uid = (run.artifacts![0] as { data: { artifact_uid: string } }).data.artifact_uid;
    const { body } = await second.raw(`/api/v1/agent/artifacts/${uid}`);
    expect(await (await fetch(body.data.download_url)).text()).toContain(`run ${run_id}`);
  });
});

describe('follow-up retries', () => {
  it('takes a follow-up once when it is sent again with the same Idempotency-Key', async () => {
    const { run_id } = await sim.client.runs.create({ prompt: 'Once [simulate 20ms]' });
    await sim.client.runs.wait(run_id, { pollInterval: 10 });
    const send = () =>
      sim.raw(`/api/v1/agent/runs/${run_id}/followups`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'retry-1' },
        body: JSON.stringify({ message: 'Only once [simulate 20ms]' }),
      });
    const first = await send();
    const second = await send();
    expect(second.body.followup_id).toBe(first.body.followup_id);
    await sim.client.runs.wait(run_id, { pollInterval: 10 });
    const { body } = await sim.raw(`/api/v1/agent/runs/${run_id}/conversation`);
    expect(body.steps).toHaveLength(2);
  });
});

describe('who may follow up and read artifacts', () => {
  it('answers 404 to another key’s follow-up, conversation and artifact, as if the run did not exist', async () => {
    const t = await startTestServer({ apiKeys: [{ key: 'alice-key-0123456789', principal: 'alice' }, { key: 'bob-key-0123456789', principal: 'bob' }] });
    servers.push(t);
    const created = await t.raw('/api/v1/agent/runs', {
      method: 'POST',
      key: 'alice-key-0123456789',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Mine [simulate 10ms] [simulate artifact file]' }),
    });
    const runId = created.body.run_id as string;
    let run = await t.raw(`/api/v1/agent/runs/${runId}`, { key: 'alice-key-0123456789' });
    while (run.body.state !== 'SUCCEEDED') {
      await new Promise((r) => setTimeout(r, 20));
      run = await t.raw(`/api/v1/agent/runs/${runId}`, { key: 'alice-key-0123456789' });
    }
    const uid = run.body.artifacts[0].data.artifact_uid as string;
    const asBob = { key: 'bob-key-0123456789' };
    const followup = await t.raw(`/api/v1/agent/runs/${runId}/followups`, {
      ...asBob,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Not yours' }),
    });
    expect(followup.status).toBe(404);
    expect((await t.raw(`/api/v1/agent/runs/${runId}/conversation`, asBob)).status).toBe(404);
    expect((await t.raw(`/api/v1/agent/artifacts/${uid}`, asBob)).status).toBe(404);
    expect((await t.raw(`/api/v1/agent/artifacts/${uid}`, { key: 'alice-key-0123456789' })).status).toBe(200);
  });
});
