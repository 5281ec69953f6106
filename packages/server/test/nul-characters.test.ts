import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './start-test-server.js';

// PostgreSQL text cannot hold NUL (U+0000): both stores must answer alike (this file also
// runs with AGENT_RUNS_TEST_STORAGE=postgres), never with a 500.
let t: TestServer;
beforeAll(async () => {
  // The agent's last words hold NUL, and so does the follow-up id it reports taken.
  t = await startTestServer({
    executor: 'command',
    command: `printf '{"type":"FOLLOWUP_TAKEN","id":"x\\\\u0000y"}\\n' >> "$AGENT_RUNS_REPORT_FILE"; printf 'bad\\000word' >&2; exit 1`,
  });
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };

describe('NUL in a request', () => {
  it('is a 400 naming the member of the body', async () => {
    const prompt = await t.raw('/api/v1/agent/runs', { method: 'POST', headers: json, body: JSON.stringify({ prompt: 'a\u0000b' }) });
    expect(prompt.status).toBe(400);
    expect(prompt.body.detail).toBe('body.prompt: must not contain the NUL character (U+0000).');
    const metadata = await t.raw('/api/v1/agent/runs', { method: 'POST', headers: json, body: JSON.stringify({ prompt: 'ok', metadata: { team: 'x\u0000' } }) });
    expect(metadata.status).toBe(400);
    expect(metadata.body.detail).toContain('body.metadata.team');
  });

  it('is a 400 in the path or a query parameter, naming the parameter', async () => {
    expect((await t.raw('/api/v1/agent/runs/a%00b')).status).toBe(400);
    const name = await t.raw('/api/v1/agent/runs?name=%00');
    expect(name.status).toBe(400);
    expect(name.body.detail).toMatch(/^name: must not contain control characters/);
  });
});

describe('NUL in what an agent says', () => {
  it('is kept as U+FFFD in the conversation, and the run ends as its agent did', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'say something odd' });
    const run = await t.client.runs.wait(run_id, { timeout: 10_000 });
    expect(run.state).toBe('FAILED');
    const { steps } = await t.client.runs.conversation(run_id);
    const said = steps[0]!.messages.at(-1)!.content[0] as { text: string };
    expect(said.text).toContain('bad\uFFFDword');
  });
});
