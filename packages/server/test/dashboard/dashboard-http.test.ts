import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardSessions } from '../../src/dashboard/dashboard-sessions.js';
import { SignInAttempts } from '../../src/dashboard/sign-in-attempts.js';
import { rawRequest } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { signInByHttp } from './dashboard-support.js';

const KEY = 'dashboard-http-key-0123456789';
let t: TestServer;
let base: string;
beforeAll(async () => {
  t = await startTestServer({ apiKeys: [{ key: KEY, principal: 'alice' }] });
  base = t.server.url;
});
afterAll(async () => {
  await t?.close();
});

const signInPost = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${base}/sign-in`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });

describe('the dashboard over HTTP', () => {
  it('keeps the runs view of a full page under 150 KB with its stylesheet and script', async () => {
    const title = 'A long title that fills the column '.repeat(14).slice(0, 480);
    await Promise.all(Array.from({ length: 30 }, (_, i) => t.client.runs.create({ prompt: `Work ${i} [simulate 10ms]`, title: `${i} ${title}` })));
    const { cookie } = await signInByHttp(base, KEY);
    const html = await (await fetch(`${base}/`, { headers: { cookie } })).text();
    // Without the script, the page already holds its data.
    expect(html.match(/<tr data-run-id=/g)).toHaveLength(25);
    const css = await (await fetch(`${base}/dashboard-assets/dashboard.css`)).text();
    const js = await (await fetch(`${base}/dashboard-assets/dashboard.js`)).text();
    const weight = [html, css, js].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(weight).toBeLessThanOrEqual(150 * 1024);
  });

  it('sends its pages with a strict CSP that lets only its own forms post', async () => {
    const { cookie } = await signInByHttp(base, KEY);
    const res = await fetch(`${base}/new`, { headers: { cookie } });
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('marks the cookie Secure behind https, and never sends a sign-in to another site', async () => {
    const plain = await signInPost({ api_key: KEY, next: '/' });
    expect(plain.headers.get('set-cookie')).not.toContain('Secure');
    const proxied = await signInPost({ api_key: KEY, next: '//evil.example/x' }, { 'x-forwarded-proto': 'https' });
    expect(proxied.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
    expect(proxied.headers.get('location')).toBe('/');
    expect((await signInPost({ api_key: 'wrong' })).status).toBe(401);
  });

  it('sends a signed-in browser only to a path that parses to this server, and escapes control characters', async () => {
    const { cookie } = await signInByHttp(base, KEY);
    // What the browser makes of each `next`: tabs and line breaks dropped, `\\` read as `/`.
    const cases: [string, string][] = [
      ['/\t/evil.example', '/'],
      ['/\n/evil.example', '/'],
      ['/\r\n/evil.example/x', '/'],
      ['/\\evil.example', '/'],
      ['//evil.example', '/'],
      ['https://evil.example/', '/'],
      ['/\x0b/evil.example', '/%0B/evil.example'],
      ['/\x0c/evil.example', '/%0C/evil.example'],
      ['/runs?state=FAILED#top', '/runs?state=FAILED#top'],
    ];
    for (const [next, location] of cases) {
      const res = await fetch(`${base}/sign-in?next=${encodeURIComponent(next)}`, { headers: { cookie }, redirect: 'manual' });
      expect([JSON.stringify(next), res.status, res.headers.get('location')]).toEqual([JSON.stringify(next), 303, location]);
      const posted = await signInPost({ api_key: KEY, next });
      expect([JSON.stringify(next), posted.status, posted.headers.get('location')]).toEqual([JSON.stringify(next), 303, location]);
    }
  });

  it('refuses a form larger than its bound through the server\'s one body reader, naming the limit', async () => {
    const res = await signInPost({ api_key: KEY, next: '/', pad: 'x'.repeat(600 * 1024) });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain('The form is larger than 524288 bytes.');
  });

  it('refuses a sign-in posted from another origin', async () => {
    const res = await signInPost({ api_key: KEY }, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('edits a named agent through its form, and removes an emptied field', async () => {
    const created = await t.raw('/api/v1/agent/identities', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'reviewer', description: 'Reviews', prompt: 'Review carefully' }),
      key: KEY,
    });
    expect(created.status).toBe(201);
    const { cookie, csrf } = await signInByHttp(base, KEY);
    const form = await (await fetch(`${base}/agents/${created.body.uid}/edit`, { headers: { cookie } })).text();
    expect(form).toContain('Review carefully');
    const saved = await fetch(`${base}/agents/${created.body.uid}`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, name: 'careful reviewer', description: '', prompt: 'Review twice', environment_id: '', base_model: '' }),
      redirect: 'manual',
    });
    expect(saved.status).toBe(303);
    const agent = await t.raw(`/api/v1/agent/identities/${created.body.uid}`, { key: KEY });
    expect(agent.body).toMatchObject({ name: 'careful reviewer', prompt: 'Review twice' });
    expect(agent.body.description ?? null).toBeNull();
  });

  it('pages the schedules and the named agents by cursor, every one reachable', async () => {
    const post = (path: string, body: object) =>
      t.raw(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), key: KEY });
    for (let i = 0; i < 51; i++) {
      expect((await post('/api/v1/agent/schedules', { name: `nightly-${i}`, cron_schedule: '0 3 * * *', prompt: 'p', enabled: false })).status).toBeLessThan(300);
      expect((await post('/api/v1/agent/identities', { name: `paged-agent-${i}` })).status).toBe(201);
    }
    const { cookie } = await signInByHttp(base, KEY);
    for (const [path, pattern, more] of [
      ['/schedules', /nightly-\d+/g, 'More schedules'],
      ['/agents', /paged-agent-\d+/g, 'More named agents'],
    ] as const) {
      const first = await (await fetch(`${base}${path}`, { headers: { cookie } })).text();
      const next = new RegExp(`<a href="(${path}\\?cursor=[^"]+)" rel="next">${more}</a>`).exec(first)?.[1];
      expect(next, path).toBeDefined();
      const second = await (await fetch(`${base}${next!.replace(/&amp;/g, '&')}`, { headers: { cookie } })).text();
      expect(second).toContain(`<a href="${path}">First page</a>`);
      expect(second).not.toContain('rel="next"');
      const seen = new Set([...first.matchAll(pattern), ...second.matchAll(pattern)].map((m) => m[0]));
      expect(seen.size, path).toBe(51);
    }
    const { status } = await fetch(`${base}/agents?cursor=not-a-cursor`, { headers: { cookie } });
    expect(status).toBe(400);
  });

  it('ends a session once signed out', async () => {
    const { cookie, csrf } = await signInByHttp(base, KEY);
    const out = await fetch(`${base}/sign-out`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf }),
      redirect: 'manual',
    });
    expect(out.status).toBe(303);
    const after = await fetch(`${base}/`, { headers: { cookie }, redirect: 'manual' });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/sign-in?next=%2F');
  });
});

/** The decoded text of a `<pre id=...>` on a page. */
const preText = (page: string, id: string) =>
  (new RegExp(`<pre id="${id}">([\\s\\S]*?)</pre>`).exec(page)?.[1] ?? '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

const post = (path: string, cookie: string, fields: Record<string, string>) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });

describe('the dashboard\'s schedules', () => {
  it('checks a cron with its next three firings before saving, names a bad one, creates, edits, pauses and resumes', async () => {
    const { cookie, csrf } = await signInByHttp(base, KEY);
    const fields = { csrf, name: 'Morning digest', cron_schedule: '30 7 * * *', prompt: 'Summarise the night', enabled: 'true' };
    const checked = await post('/schedules', cookie, { ...fields, intent: 'check' });
    expect(checked.status).toBe(200);
    const form = await checked.text();
    const firings = [...form.matchAll(/<li><time datetime="([^"]+)"/g)].map((m) => m[1]!);
    expect(firings).toHaveLength(3);
    expect(firings.every((iso) => iso.endsWith('T07:30:00.000Z'))).toBe(true);
    expect(form).toContain('value="Morning digest"');
    const listed = async () => (await t.raw('/api/v1/agent/schedules', { key: KEY })).body.schedules as { id: string; name: string; enabled: boolean; cron_schedule: string }[];
    expect((await listed()).some((s) => s.name === 'Morning digest')).toBe(false);

    const bad = await post('/schedules', cookie, { ...fields, cron_schedule: '61 * * *', intent: 'save' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/cron_schedule/);

    expect((await post('/schedules', cookie, { ...fields, intent: 'save' })).status).toBe(303);
    const made = (await listed()).find((s) => s.name === 'Morning digest')!;
    expect(made).toMatchObject({ enabled: true, cron_schedule: '30 7 * * *' });
    const edit = await (await fetch(`${base}/schedules/${made.id}/edit`, { headers: { cookie } })).text();
    expect(edit).toContain('Summarise the night');
    expect((await post(`/schedules/${made.id}`, cookie, { ...fields, cron_schedule: '0 8 * * 1-5', intent: 'save' })).status).toBe(303);
    expect((await listed()).find((s) => s.id === made.id)).toMatchObject({ cron_schedule: '0 8 * * 1-5', enabled: true });

    expect((await post(`/schedules/${made.id}/pause`, cookie, { csrf })).status).toBe(303);
    expect((await listed()).find((s) => s.id === made.id)?.enabled).toBe(false);
    expect(await (await fetch(`${base}/schedules/${made.id}/edit`, { headers: { cookie } })).text()).not.toMatch(/name="enabled" value="true" checked/);
    expect((await post(`/schedules/${made.id}/resume`, cookie, { csrf })).status).toBe(303);
    expect((await listed()).find((s) => s.id === made.id)?.enabled).toBe(true);
  });
});

describe('a run\'s copy buttons', () => {
  it('hold an agent-runs command and a curl call that start the same run when pasted into a shell', async () => {
    const prompt = `It's "$HOME" and \`id\`; \${{ secrets.TOKEN }} [simulate 10ms]`;
    const title = `Quote's $(id) test`;
    const run = await t.client.runs.create({ prompt, title, config: { harness: { type: 'oz' } } });
    const { cookie } = await signInByHttp(base, KEY);
    const page = await (await fetch(`${base}/runs/${run.run_id}`, { headers: { cookie } })).text();
    const command = preText(page, 'copy-command');
    expect(command).toContain("--harness 'oz'");
    const step = preText(page, 'copy-step');
    expect(step).toContain('    harness: "oz"');
    expect(step).toContain(`    title: ${JSON.stringify(title)}`);
    expect(step).toContain(`    base-url: "${base}/api/v1"`);
    // A workflow would expand an expression in the prompt: it is written as the literal text.
    expect(step).toContain("${{ '${{' }} secrets.TOKEN }} [simulate 10ms]");
    expect(step).not.toContain('; ${{ secrets.TOKEN');

    // The CLI this repository builds, as `agent-runs` on the PATH.
    const bin = mkdtempSync(join(tmpdir(), 'dashboard-copy-'));
    symlinkSync(fileURLToPath(new URL('../../../cli/bin/agent-runs.js', import.meta.url)), join(bin, 'agent-runs'));
    const env = { PATH: `${bin}:${process.env.PATH}`, HOME: bin, AGENT_RUNS_API_KEY: KEY };
    const sh = promisify(execFile);
    try {
      for (const text of [command, preText(page, 'copy-curl')]) {
        const before = new Set(((await t.raw('/api/v1/agent/runs?limit=100', { key: KEY })).body.runs as { run_id: string }[]).map((r) => r.run_id));
        await sh('sh', ['-c', text], { env, timeout: 30_000 });
        const runs = (await t.raw('/api/v1/agent/runs?limit=100', { key: KEY })).body.runs as { run_id: string; prompt: string; title: string; agent_config?: { harness?: { type?: string } } }[];
        const again = runs.filter((r) => !before.has(r.run_id));
        expect(again, text).toHaveLength(1);
        expect(again[0]).toMatchObject({ prompt, title, agent_config: { harness: { type: 'oz' } } });
      }
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe('dashboard sessions', () => {
  it('end after the idle limit and after the absolute limit, however active', () => {
    let now = 0;
    const sessions = new DashboardSessions({ idleMs: 100, absoluteMs: 1000, max: 10, perPrincipal: 10 }, () => now);
    const idle = sessions.open('alice')!;
    now = 101;
    expect(sessions.find(idle.id)).toBeUndefined();
    const busy = sessions.open('alice')!;
    for (now = 150; now <= 1100; now += 90) {
      if (now - busy.createdAt > 1000) expect(sessions.find(busy.id)).toBeUndefined();
      else expect(sessions.find(busy.id)?.principal).toBe('alice');
    }
  });

  it('keep at most perPrincipal for each principal, ending only that principal\'s oldest', () => {
    const sessions = new DashboardSessions({ idleMs: 1000, absoluteMs: 1000, max: 10, perPrincipal: 2 }, () => 0);
    const bob = sessions.open('bob')!;
    const first = sessions.open('alice')!;
    const second = sessions.open('alice')!;
    const third = sessions.open('alice')!;
    expect(sessions.find(first.id)).toBeUndefined();
    expect([sessions.find(second.id)?.principal, sessions.find(third.id)?.principal, sessions.find(bob.id)?.principal]).toEqual(['alice', 'alice', 'bob']);
  });

  it('refuse a sign-in past the server-wide bound until one has expired, ending no one\'s', () => {
    let now = 0;
    const sessions = new DashboardSessions({ idleMs: 100, absoluteMs: 1000, max: 2, perPrincipal: 2 }, () => now);
    const a = sessions.open('a')!;
    now = 50;
    const b = sessions.open('b')!;
    expect(sessions.open('c')).toBeUndefined();
    expect(sessions.find(a.id)?.principal).toBe('a');
    now = 160; // a idle for 110 ms, b for 110 ms too: both expired, two places free.
    expect(sessions.open('c')?.principal).toBe('c');
    expect(sessions.find(b.id)).toBeUndefined();
  });
});

describe('dashboard sign-ins of one key', () => {
  it('end that principal\'s oldest session past its bound, never another principal\'s', async () => {
    const other = await startTestServer({ apiKeys: [{ key: KEY, principal: 'alice' }, { key: 'dashboard-http-bob-0123456789', principal: 'bob' }] });
    try {
      const url = other.server.url;
      const signedIn = async (cookie: string) => (await fetch(`${url}/new`, { headers: { cookie }, redirect: 'manual' })).status === 200;
      const bob = await signInByHttp(url, 'dashboard-http-bob-0123456789');
      const alice: string[] = [];
      for (let i = 0; i < 51; i++) alice.push((await signInByHttp(url, KEY)).cookie);
      expect([await signedIn(bob.cookie), await signedIn(alice[0]!), await signedIn(alice[1]!), await signedIn(alice[50]!)]).toEqual([true, false, true, true]);
    } finally {
      await other.close();
    }
  });
});

/**
 * A sign-in posted from `from`, one of the loopback addresses (all of 127.0.0.0/8 is this
 * machine): the other tests sign in from 127.0.0.1, which these leave alone.
 */
const signIn = (apiKey: string, from: string) =>
  rawRequest(`${base}/sign-in`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: apiKey, next: '/' }).toString(),
    localAddress: from,
  });

describe('dashboard sign-in attempts', () => {
  it('answer ten wrong keys from one address, then refuse it (any key) until tries come back, and no other address', async () => {
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn(`wrong-${i}`, '127.0.0.4')));
    expect(burst.map((res) => res.status)).toEqual(Array(10).fill(401));
    // Each refused attempt spends a try as well: four more keep the address out for about four seconds.
    const refused = [];
    for (let i = 0; i < 4; i++) refused.push(await signIn(`wrong-more-${i}`, '127.0.0.4'));
    expect(refused.map((res) => res.status)).toEqual([429, 429, 429, 429]);
    expect(refused[0]!.text).toContain('Too many wrong keys from your address: try again in ');
    expect(Number(refused[3]!.headers['retry-after'])).toBeGreaterThanOrEqual(2);
    // Refused before the key is looked at: the right one gets no session either.
    const right = await signIn(KEY, '127.0.0.4');
    expect([right.status, right.headers['set-cookie']]).toEqual([429, undefined]);
    // Another address is not held back by this one's guesses.
    expect((await signIn(KEY, '127.0.0.5')).status).toBe(303);
    // Once the time Retry-After names has passed (polling sooner would push it back), the key is looked at again.
    await new Promise((resolve) => setTimeout(resolve, Number(right.headers['retry-after']) * 1000));
    expect((await signIn(KEY, '127.0.0.4')).status).toBe(303);
  }, 30_000);

  it('come back one a second, and refused attempts push the next try back, at most the burst', () => {
    let now = 0;
    const attempts = new SignInAttempts({ burst: 3, refillMs: 1000, maxAddresses: 100 }, () => now);
    for (let i = 0; i < 3; i++) {
      expect(attempts.admit('a')).toBe(0);
      attempts.failed('a');
    }
    expect(attempts.admit('a')).toBe(2000); // none left, and this one spent: -1
    for (let i = 0; i < 10; i++) attempts.admit('a');
    expect(attempts.admit('a')).toBe(4000); // never below -3
    expect(attempts.admit('b')).toBe(0);
    now += 4000;
    expect(attempts.admit('a')).toBe(0);
  });
});
