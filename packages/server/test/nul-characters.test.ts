import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/start-test-server.js';

// PostgreSQL text cannot hold NUL (U+0000), SQLite can: both stores must answer alike
// (this file also runs with AGENT_RUNS_TEST_STORAGE=postgres), never with a 500.
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
  it('is taken in a prompt, metadata and a follow-up', async () => {
    const created = await t.raw('/api/v1/agent/runs', { method: 'POST', headers: json, body: JSON.stringify({ prompt: 'a\u0000b', metadata: { team: 'x\u0000' } }) });
    expect(created.status).toBe(200);
    const followup = await t.raw(`/api/v1/agent/runs/${created.body.run_id}/followups`, { method: 'POST', headers: json, body: JSON.stringify({ message: 'c\u0000d' }) });
    expect(followup.status).toBe(200);
  });

  it('in a path or a filter matches nothing', async () => {
    expect((await t.raw('/api/v1/agent/runs/a%00b')).status).toBe(404);
    const page = await t.raw('/api/v1/agent/runs?name=%00');
    expect(page.status).toBe(200);
    expect(page.body.runs).toEqual([]);
  });
});

describe('NUL in what an agent says', () => {
  it('does not keep the run from ending as its agent did, with its words in the conversation', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'say something odd' });
    const run = await t.client.runs.wait(run_id, { timeout: 10_000 });
    expect(run.state).toBe('FAILED');
    const { steps } = await t.client.runs.conversation(run_id);
    const said = steps[0]!.messages.at(-1)!.content[0] as { text: string };
    expect(said.text).toMatch(/bad[\u0000\uFFFD]word/);
  });
});
