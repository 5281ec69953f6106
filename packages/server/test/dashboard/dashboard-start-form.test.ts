import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteRunStore } from '../../src/store/runs/sqlite-run-store.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { signInByHttp } from './dashboard-support.js';

const KEY = 'dashboard-form-key-0123456789';
const MiB = 1024 * 1024;
let t: TestServer;
let base: string;
let dir: string;
let session: { cookie: string; csrf: string };
const savedKey = process.env.ANTHROPIC_API_KEY;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-runs-dashboard-form-'));
  // A claude CLI the server finds, and its key: the catalog lists claude's models as usable,
  // and codex's (its CLI is not where the file says) and gemini's as disabled.
  writeFileSync(join(dir, 'claude'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'claude'), 0o755);
  writeFileSync(join(dir, 'config.yaml'), 'harnesses:\n  claude:\n    command: ./claude\n    env: [ANTHROPIC_API_KEY]\n  codex:\n    command: ./no-such-codex\n  gemini:\n    command: ./no-such-gemini\n');
  process.env.ANTHROPIC_API_KEY = 'sk-test-not-used';
  t = await startTestServer({ storage: 'file', dataDir: join(dir, 'data'), configFile: join(dir, 'config.yaml'), apiKeys: [{ key: KEY, principal: 'alice' }] });
  base = t.server.url;
  session = await signInByHttp(base, KEY);
});
afterAll(async () => {
  await t?.close();
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
  rmSync(dir, { recursive: true, force: true });
});

/** Posts the start form as a browser does with `enctype="multipart/form-data"`. */
function postStart(fields: Record<string, string>, files: { name: string; type: string; bytes: Buffer }[] = [], headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ csrf: session.csrf, ...fields })) form.append(name, value);
  for (const file of files) form.append('attachments', new Blob([file.bytes], { type: file.type }), file.name);
  return fetch(`${base}/runs`, { method: 'POST', headers: { cookie: session.cookie, origin: base, ...headers }, body: form, redirect: 'manual' });
}

const runCount = async () => (await t.raw('/api/v1/agent/runs?limit=100', { key: KEY })).body.runs.length as number;

describe('the start-a-run form', () => {
  it('offers the catalog\'s harnesses and models, the unavailable ones disabled with their reason', async () => {
    const page = await (await fetch(`${base}/new`, { headers: { cookie: session.cookie } })).text();
    expect(page).toContain('enctype="multipart/form-data"');
    expect(page).toMatch(/<option value="oz">oz<\/option><option value="claude">claude<\/option>/);
    expect(page).toMatch(/<option value="claude-haiku-4-5">Claude Haiku 4.5 \(Claude Code\)<\/option>/);
    expect(page).toMatch(/<option value="codex" disabled>codex \(unavailable: the codex CLI is not installed at \S*\/no-such-codex \(harnesses\.codex\.command\)/);
    expect(page).toMatch(/<option value="gpt-5-codex" disabled>GPT-5 Codex \(Codex CLI\) \(unavailable: the codex CLI is not installed at \S*\/no-such-codex \(harnesses\.codex\.command\)/);
    expect(page).toContain('<optgroup label="gemini">');
    expect(page).toMatch(/<input type="file" id="attachments" name="attachments" multiple data-max-files="5" data-max-bytes="5242880" data-max-total="10485760"/);
  });

  it('starts a run on the picked model\'s harness, with the attached files as the API stores them', async () => {
    const png = Buffer.from([137, 80, 78, 71, 0, 255]);
    const res = await postStart({ prompt: 'Read the files [simulate 10ms]', title: 'With files' }, [
      { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('hello agent') },
      { name: 'shot.png', type: 'image/png', bytes: png },
    ]);
    expect(res.status).toBe(303);
    const runId = decodeURIComponent(res.headers.get('location')!.replace('/runs/', ''));
    const store = new SqliteRunStore(join(dir, 'data', 'runs.sqlite'));
    try {
      const files = await store.getAttachments(runId);
      expect(files.map((f) => [f.fileName, f.mimeType, f.data.toString('base64')])).toEqual([
        ['notes.txt', 'text/plain', Buffer.from('hello agent').toString('base64')],
        ['shot.png', 'image/png', png.toString('base64')],
      ]);
    } finally {
      await store.close();
    }

    const picked = await postStart({ prompt: 'Use haiku', model_id: 'claude-haiku-4-5' });
    expect(picked.status).toBe(303);
    const run = await t.raw(`/api/v1/agent/runs/${picked.headers.get('location')!.replace('/runs/', '')}`, { key: KEY });
    expect(run.body.agent_config.harness).toMatchObject({ type: 'claude', model_id: 'claude-haiku-4-5' });
    await t.raw(`/api/v1/agent/runs/${run.body.run_id}/cancel`, { method: 'POST', key: KEY });
  });

  it('refuses a disabled model or harness, naming the field, and keeps what was typed', async () => {
    const before = await runCount();
    const model = await postStart({ prompt: 'Typed <b>prompt</b>', model_id: 'gpt-5-codex' });
    expect(model.status).toBe(400);
    const page = await model.text();
    expect(page).toMatch(/model_id: &quot;gpt-5-codex&quot; cannot be used on this server now: the codex CLI is not installed at \S*\/no-such-codex \(harnesses\.codex\.command\)/);
    expect(page).toContain('Typed &lt;b&gt;prompt&lt;/b&gt;</textarea>');
    const harness = await postStart({ prompt: 'p', harness: 'gemini' });
    expect(harness.status).toBe(400);
    expect(await harness.text()).toContain('harness: &quot;gemini&quot; cannot run on this server now');
    expect(await runCount()).toBe(before);
  });

  it('names the attachments field when a file is too big, when there are too many, and when they are too large together', async () => {
    const before = await runCount();
    const big = await postStart({ prompt: 'Keep me' }, [{ name: 'big.bin', type: 'application/octet-stream', bytes: Buffer.alloc(5 * MiB + 1) }]);
    expect(big.status).toBe(400);
    const bigPage = await big.text();
    expect(bigPage).toContain('attachments: &quot;big.bin&quot; is 5 MiB (5242881 bytes); attach at most 5 files, each at most 5 MiB, 10 MiB together.');
    expect(bigPage).toContain('Keep me</textarea>');

    const six = Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, type: 'text/plain', bytes: Buffer.from(`file ${i}`) }));
    const many = await postStart({ prompt: 'p' }, six);
    expect(many.status).toBe(400);
    expect(await many.text()).toContain('attachments: 6 files chosen; attach at most 5 files');

    const three = Array.from({ length: 3 }, (_, i) => ({ name: `part${i}.bin`, type: 'application/octet-stream', bytes: Buffer.alloc(4 * MiB) }));
    const together = await postStart({ prompt: 'p' }, three);
    expect(together.status).toBe(413);
    const togetherPage = await together.text();
    expect(togetherPage).toContain('attachments: the files are too large to send; attach at most 5 files, each at most 5 MiB, 10 MiB together.');
    // The form is shown again to be sent with fewer files.
    expect(togetherPage).toContain('<form method="post" action="/runs" enctype="multipart/form-data"');
    expect(await runCount()).toBe(before);
  });

  it('refuses a form with files posted without the CSRF token or from another origin, before starting anything', async () => {
    const before = await runCount();
    const form = new FormData();
    form.append('prompt', 'no token');
    form.append('attachments', new Blob(['x']), 'x.txt');
    const noToken = await fetch(`${base}/runs`, { method: 'POST', headers: { cookie: session.cookie, origin: base }, body: form, redirect: 'manual' });
    expect(noToken.status).toBe(403);
    expect(await noToken.text()).toContain('csrf: the form');
    const elsewhere = await postStart({ prompt: 'cross-site' }, [], { origin: 'http://evil.example' });
    expect(elsewhere.status).toBe(403);
    expect(await runCount()).toBe(before);
  });

  it('answers a malformed multipart body with an error that names the problem, never a crash', async () => {
    const send = (body: string, contentType: string) =>
      fetch(`${base}/runs`, { method: 'POST', headers: { cookie: session.cookie, origin: base, 'content-type': contentType }, body, redirect: 'manual' });
    const noBoundary = await send('x', 'multipart/form-data');
    expect(noBoundary.status).toBe(400);
    expect(await noBoundary.text()).toContain('multipart/form-data without a valid boundary');
    const unterminated = await send(`--b\r\ncontent-disposition: form-data; name="prompt"\r\n\r\nno end`, 'multipart/form-data; boundary=b');
    expect(unterminated.status).toBe(400);
    expect(await unterminated.text()).toContain('the form ended before its closing boundary');
    const parts = Array.from({ length: 65 }, (_, i) => `--b\r\ncontent-disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('') + '--b--\r\n';
    const tooMany = await send(parts, 'multipart/form-data; boundary=b');
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toContain('the form has more than 64 parts');
    // Files go only where a form takes them.
    const schedule = await fetch(`${base}/schedules`, { method: 'POST', headers: { cookie: session.cookie, origin: base }, body: new FormData(), redirect: 'manual' });
    expect(schedule.status).toBe(415);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('lists the named agents to pick from, and past a page of them takes a typed uid with the first page suggested', async () => {
    const create = (name: string) =>
      t.raw('/api/v1/agent/identities', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }), key: KEY });
    const first = (await create('Reviewer <b>bot</b>')).body.uid as string;
    const page = async () => (await fetch(`${base}/new`, { headers: { cookie: session.cookie } })).text();
    expect(await page()).toContain(`<select id="agent" name="agent_identity_uid"><option value="">none</option><option value="${first}">Reviewer &lt;b&gt;bot&lt;/b&gt;</option>`);
    for (let i = 0; i < 500; i++) await create(`agent ${i}`);
    const many = await page();
    expect(many).toContain('<input id="agent" name="agent_identity_uid" list="agent-choices"');
    expect(many.match(/<datalist id="agent-choices">(.*?)<\/datalist>/s)?.[1]?.match(/<option /g)).toHaveLength(500);
    // A uid typed past the suggestions starts the run as that agent.
    const last = (await create('the last one')).body.uid as string;
    const started = await postStart({ prompt: 'as the last agent', agent_identity_uid: last });
    expect(started.status).toBe(303);
    const [run] = (await t.raw('/api/v1/agent/runs?limit=1', { key: KEY })).body.runs as { agent_config?: { name?: string } }[];
    // The named agent's name becomes the run's agent name.
    expect(run!.agent_config?.name).toBe('the last one');
  }, 60_000);
});
