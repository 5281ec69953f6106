import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from './support/read-sse.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('the live session page', () => {
  it('links a live run to its stream and script, with no inline script under a CSP, and refreshes only without JavaScript', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Live [simulate hang]' });
    const run = await t.client.runs.get(run_id);
    const res = await fetch(run.session_link!);
    const html = await res.text();
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html).toContain('<script src="/assets/session-live.js" defer></script>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).toMatch(/<noscript><meta http-equiv="refresh" content="2"><\/noscript>/);
    // The page's own query (its token) goes with the stream's address.
    const token = new URL(run.session_link!).searchParams.get('token')!;
    expect(html).toMatch(new RegExp(`data-events="/sessions/${run.session_id}/events\\?token=${token}&amp;last_event_id=\\d+"`));
    const script = await fetch(`${t.server.url}/assets/session-live.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(await script.text()).toContain('new EventSource');
    await t.client.runs.cancel(run_id);
  });

  it('streams state and output to the page without the API key, and without the configuration', async () => {
    const { run_id } = await t.client.runs.create({
      prompt: 'Stream [simulate 300ms]',
      config: { mcp_servers: { gh: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_secret_value' } } } },
    });
    const run = await t.client.runs.get(run_id);
    const link = new URL(run.session_link!);
    const stream = await readSse(`${link.origin}${link.pathname}/events${link.search}`);
    await stream.ended;
    const states = stream.events.filter((e) => e.event === 'run').map((e) => e.data.state);
    expect(states.at(-1)).toBe('SUCCEEDED');
    expect(stream.events.some((e) => e.event === 'output' && e.data.text.includes('simulated agent'))).toBe(true);
    expect(JSON.stringify(stream.events)).not.toContain('ghp_secret_value');
    expect(stream.events.find((e) => e.event === 'run')!.data.agent_config).toBeUndefined();
  });

  it('shows the artifacts on the page and streams them as the page labels them', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Ship it [simulate 200ms] [simulate artifact pr plan]' });
    const run = await t.client.runs.get(run_id);
    const link = new URL(run.session_link!);
    const stream = await readSse(`${link.origin}${link.pathname}/events${link.search}`);
    await stream.ended;
    const last = stream.events.at(-1)!;
    expect(last.data.state).toBe('SUCCEEDED');
    expect(last.data.artifacts).toEqual([expect.stringMatching(/^PULL_REQUEST: https?:\/\//), 'PLAN: Simulated plan']);
    const html = await (await fetch(run.session_link!)).text();
    expect(html).toContain('<li>PLAN: Simulated plan</li>');
    expect(html).toMatch(/<li>PULL_REQUEST: https?:\/\//);
  });

  it('answers the stream only with the page token: 403 without it or with a wrong one, 404 for an unknown session', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Private [simulate hang]' });
    const run = await t.client.runs.get(run_id);
    const base = `${t.server.url}/sessions/${run.session_id}/events`;
    const without = await fetch(base);
    expect(without.status).toBe(403);
    expect(await without.text()).not.toContain('Private');
    expect((await fetch(`${base}?token=not-the-token`)).status).toBe(403);
    expect((await fetch(`${t.server.url}/sessions/nope/events`)).status).toBe(404);
    await t.client.runs.cancel(run_id);
  });
});
