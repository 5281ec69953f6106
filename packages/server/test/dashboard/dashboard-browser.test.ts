import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeAgentCommand } from '../support/node-agent.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { launchChromium } from '../support/system-chromium.js';
import { seriousViolations, signIn, signInByHttp, type PageGlobals } from './dashboard-support.js';

// Screenshots the READMEs show; `UPDATE_SCREENSHOTS=1` writes them there, otherwise to the temp dir.
const DOCS = fileURLToPath(new URL('../../../../docs/', import.meta.url));

const ALICE = { key: 'alice-key-0123456789abcdef', principal: 'alice' };
const BOB = { key: 'bob-key-0123456789abcdef', principal: 'bob' };
// A 1×1 PNG the agent leaves: a screenshot the run's page shows inline.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const HOSTILE = '<img src=x onerror="globalThis.__pwned=1"><script>globalThis.__pwned=1</script>';

// The agent: prints its prompt and follow-up, waits for a gate file the prompt names, and
// with [hostile] prints markup and leaves a file and a plan whose names are markup.
const gates = mkdtempSync(join(tmpdir(), 'dashboard-gates-'));
chmodSync(gates, 0o755); // The agent (the agent user of a root server) watches it, shown read-only in its sandbox.
const AGENT = `
const fs = require('fs'), path = require('path');
const env = process.env;
const prompt = fs.readFileSync(0, 'utf8');
const follow = fs.readFileSync(env.AGENT_RUNS_FOLLOWUP_FILE, 'utf8');
console.log('Working on: ' + prompt.trim().slice(0, 80));
if (follow) console.log('Follow-up received: ' + follow);
const asked = fs.readFileSync(env.AGENT_RUNS_CONVERSATION_FILE, 'utf8').trim().split('\\n').map((line) => JSON.parse(line)).filter((e) => e.kind === 'followup').pop();
if (follow && asked) console.log('Follow-up mode: ' + asked.mode);
if (prompt.includes('[hostile]')) {
  console.log(${JSON.stringify(HOSTILE)});
  fs.writeFileSync(path.join(env.AGENT_RUNS_ARTIFACTS_DIR, '<img src=x onerror=alert(1)>.txt'), 'hi');
  fs.appendFileSync(env.AGENT_RUNS_REPORT_FILE, JSON.stringify({ type: 'PLAN', title: ${JSON.stringify(HOSTILE)}, content: '# <i>plan</i>' }) + '\\n');
  fs.writeFileSync(path.join(env.AGENT_RUNS_ARTIFACTS_DIR, 'shot.png'), Buffer.from(${JSON.stringify(PNG)}, 'base64'));
  fs.appendFileSync(env.AGENT_RUNS_REPORT_FILE, JSON.stringify({ type: 'PULL_REQUEST', url: 'https://example.com/acme/app/pull/7', branch: 'fix-login' }) + '\\n');
  fs.appendFileSync(env.AGENT_RUNS_REPORT_FILE, JSON.stringify({ type: 'EXTERNAL_REFERENCE', url: 'https://example.com/tickets/42', reference_type: 'ISSUE' }) + '\\n');
}
if (prompt.includes('[files]')) {
  for (const name of fs.readdirSync(env.AGENT_RUNS_ATTACHMENTS_DIR).sort()) console.log('Attached: ' + name + '=' + fs.readFileSync(path.join(env.AGENT_RUNS_ATTACHMENTS_DIR, name), 'utf8'));
}
const gate = /\\[gate (\\w+)\\]/.exec(prompt);
const hang = prompt.includes('[hang]') && !follow;
const until = Date.now() + 30000;
function wait() {
  if (Date.now() > until || (gate && !hang && fs.existsSync(path.join(${JSON.stringify(gates)}, gate[1])))) { console.log('All done'); return; }
  if (!gate && !hang) { console.log('All done'); return; }
  setTimeout(wait, 50);
}
wait();
`;
const WORKER_TOKEN = 'dashboard-worker-token-0123456789';
const open = (gate: string) => writeFileSync(join(gates, gate), '');

let t: TestServer;
let browser: BrowserContext;
let base: string;
beforeAll(async () => {
  t = await startTestServer({
    executor: 'command',
    command: nodeAgentCommand(AGENT),
    concurrency: 1,
    apiKeys: [ALICE, BOB],
    // An environment and a skill, so their pages show a table (and axe checks it).
    configFile: writeServerConfig({
      sandbox_read_only: [gates],
      environments: { web: { name: 'Web app', description: 'The web front end' } },
      skill_directories: [join(tempTree({ 'kit/triage/SKILL.md': '---\nname: triage\ndescription: Label new issues\n---\nLabel the issue.\n' }), 'kit')],
      // A worker token, so that a worker connects and the Workers page shows a table too.
      // And a worker id no worker ever connects as, whose runs wait QUEUED (the runs table's batch).
      workers: {
        gpu: { token: { from_file: join(tempTree({ 'gpu.token': WORKER_TOKEN }), 'gpu.token') }, worker_hosts: ['gpu'] },
        idle: { token: { from_file: join(tempTree({ 'idle.token': 'dashboard-idle-token-0123456789' }), 'idle.token') }, worker_hosts: ['idle'] },
      },
    }),
  });
  base = t.server.url;
  browser = await launchChromium();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  rmSync(gates, { recursive: true, force: true });
});

const api = (path: string, body: unknown, key = ALICE.key) =>
  t.raw(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), key });

async function newPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { page, problems };
}

// Runs in the page: it names nothing of this module.
const textOf = ([selector, expected]: readonly [string, string]) =>
  (globalThis as unknown as PageGlobals).document.querySelector(selector)?.textContent?.includes(expected) ?? false;

async function waitRun(runId: string, state: string) {
  for (let i = 0; i < 600; i++) {
    const run = await t.raw(`/api/v1/agent/runs/${runId}`, { key: ALICE.key });
    if (run.body.state === state) return run.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId} never reached ${state}`);
}

describe('the dashboard in a browser', { timeout: 90_000 }, () => {
  it('signs in with a key in a form, and out again', async () => {
    const { page } = await newPage();
    await page.goto(`${base}/schedules`);
    expect(page.url()).toBe(`${base}/sign-in?next=%2Fschedules`);
    await page.fill('#api-key', 'not-a-key');
    await page.click('button[type=submit]');
    expect(await page.textContent('[role=alert]')).toContain('not one of this server');
    await page.fill('#api-key', ALICE.key);
    await Promise.all([page.waitForURL(`${base}/schedules`), page.click('button[type=submit]')]);
    const cookie = (await browser.cookies(base)).find((c) => c.name === 'agent_runs_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(page.url()).not.toContain(ALICE.key);
    await Promise.all([page.waitForURL(/\/sign-in$/), page.click('text=Sign out')]);
    await page.goto(`${base}/`);
    expect(page.url()).toContain('/sign-in');
    await page.close();
  });

  it('shows a run started from the dashboard go QUEUED → INPROGRESS → SUCCEEDED, live in the table and on its page', async () => {
    const { page, problems } = await newPage();
    await signIn(page, base, ALICE.key);
    const blocker = await api('/api/v1/agent/runs', { prompt: 'Hold the queue [gate blocker]' });
    await waitRun(blocker.body.run_id, 'INPROGRESS');
    // The runs table, open in a tab of its own, follows without a reload.
    const { page: table } = await newPage();
    await table.goto(`${base}/`);
    let tableLoads = 0;
    table.on('load', () => tableLoads++);

    await page.goto(`${base}/new`);
    await page.fill('#prompt', 'Fix the flaky login test [gate main]');
    await page.fill('#title', 'Fix the flaky login test');
    // `oz` is the server's default harness (here the command agent), as the contract has it.
    await page.selectOption('#harness', 'oz');
    await Promise.all([page.waitForURL(/\/runs\/[^/]+$/), page.click('text=Start the run')]);
    const runId = page.url().split('/').pop()!;
    let loads = 0;
    page.on('load', () => loads++);
    expect(await page.textContent('#run-state')).toBe('QUEUED');
    expect(await page.textContent('dl.meta')).toContain('oz');

    const row = `tr[data-run-id="${runId}"]`;
    await table.waitForFunction(textOf, [row, 'QUEUED'] as const, { timeout: 15_000 });
    expect(await table.textContent('tbody tr:first-child')).toContain('Fix the flaky login test');

    open('blocker');
    await page.waitForFunction(textOf, ['#run-state', 'INPROGRESS'] as const, { timeout: 15_000 });
    await page.waitForFunction(textOf, ['#output', 'Working on: Fix the flaky login test'] as const, { timeout: 15_000 });
    await table.waitForFunction(textOf, [row, 'INPROGRESS'] as const, { timeout: 15_000 });
    // Paused, the output holds still while the run goes on; resumed, it shows what came meanwhile.
    await page.click('#output-pause');
    expect(await page.getAttribute('#output-pause', 'aria-pressed')).toBe('true');
    open('main');
    await page.waitForFunction(textOf, ['#run-state', 'SUCCEEDED'] as const, { timeout: 15_000 });
    expect(await page.textContent('#output')).not.toContain('All done');
    await page.click('#output-pause');
    await page.waitForFunction(textOf, ['#output', 'All done'] as const, { timeout: 15_000 });
    // What the run made and its end come onto the page without a reload, and cancel goes.
    await page.waitForFunction(textOf, ['#timeline', 'SUCCEEDED'] as const, { timeout: 15_000 });
    await page.waitForFunction(textOf, ['#conversation-section', 'Fix the flaky login test [gate main]'] as const, { timeout: 15_000 });
    expect(await page.locator('#run-actions button', { hasText: 'Cancel run' }).count()).toBe(0);
    // The search keeps the lines that hold its text, and says how many.
    await page.fill('#output-search', 'all DONE');
    expect(await page.textContent('#output')).toBe('All done');
    expect(await page.textContent('#output-count')).toBe('1 line matches');
    await page.fill('#output-search', '');
    expect(await page.textContent('#output')).toContain('Working on: Fix the flaky login test');
    await table.waitForFunction(textOf, [row, 'SUCCEEDED'] as const, { timeout: 15_000 });
    expect(loads).toBe(0);
    expect(tableLoads).toBe(0);
    expect(problems, problems.join('\n')).toEqual([]);

    // A follow-up sent from the page reaches the agent, and its answer follows on the page.
    await page.fill('#followup-message', 'Also update the changelog');
    await page.selectOption('select[name=mode]', 'plan');
    await Promise.all([page.waitForURL(/done=/), page.click('text=Send follow-up')]);
    await page.waitForFunction(textOf, ['#output', 'Follow-up received: Also update the changelog'] as const, { timeout: 15_000 });
    await page.waitForFunction(textOf, ['#output', 'Follow-up mode: plan'] as const, { timeout: 15_000 });
    await waitRun(runId, 'SUCCEEDED');

    // Run again: a new run of the same request.
    await page.goto(`${base}/runs/${runId}`);
    await Promise.all([page.waitForURL((url) => /\/runs\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(runId)), page.click('text=Run again')]);
    const againId = page.url().split('/').pop()!;
    const again = await waitRun(againId, 'SUCCEEDED');
    expect(again).toMatchObject({ title: 'Fix the flaky login test', prompt: 'Fix the flaky login test [gate main]', source: 'WEB_APP', agent_config: { harness: { type: 'oz' } } });
    await page.close();
    await table.close();
  });

  it('cancels a run from its page', async () => {
    const { page } = await newPage();
    await signIn(page, base, ALICE.key);
    const run = await api('/api/v1/agent/runs', { prompt: 'Wait forever [hang]', title: 'Long wait' });
    await waitRun(run.body.run_id, 'INPROGRESS');
    await page.goto(`${base}/runs/${run.body.run_id}`);
    await Promise.all([page.waitForURL(/done=/), page.click('text=Cancel run')]);
    await waitRun(run.body.run_id, 'CANCELLED');
    await page.reload();
    expect(await page.textContent('#run-state')).toBe('CANCELLED');
    await page.close();
  });

  it('lists, filters (in the URL) and pages the runs', async () => {
    // For the `idle` worker id, which no worker serves: they wait QUEUED rather than hold the
    // server's one slot for 26 agents in turn, which the runs of the tests below would wait behind.
    for (let i = 0; i < 26; i++) {
      await api('/api/v1/agent/runs', { prompt: `Batch ${i} ${i % 2 ? 'needle' : 'hay'}`, title: `Batch ${i} ${i % 2 ? 'needle' : 'hay'}`, config: { worker_host: 'idle' } });
    }
    const { page } = await newPage();
    await signIn(page, base, ALICE.key);
    expect(await page.locator('tbody tr').count()).toBe(25);
    await Promise.all([page.waitForURL(/cursor=/), page.click('text=Older runs')]);
    expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
    await page.goto(`${base}/`);
    await page.fill('input[name=q]', 'needle');
    await Promise.all([page.waitForURL(/q=needle/), page.click('text=Filter')]);
    const titles = await page.locator('tbody td.title').allTextContents();
    expect(titles).toHaveLength(13);
    expect(titles.every((title) => title.includes('needle'))).toBe(true);
    // The view is its URL: opened afresh, it shows the same runs.
    const shared = page.url();
    await page.goto(shared);
    expect(await page.locator('tbody td.title').allTextContents()).toEqual(titles);
    await page.goto(`${base}/?state=CANCELLED`);
    expect(await page.locator('tbody td.title').allTextContents()).toEqual(['Long wait']);
    await page.close();
  });

  it('renders markup from titles, output, artifact names and messages as text', async () => {
    const { body } = await api('/api/v1/agent/runs', { prompt: `Look [hostile] ${HOSTILE}`, title: HOSTILE });
    await waitRun(body.run_id, 'SUCCEEDED');
    await api(`/api/v1/agent/runs/${body.run_id}/followups`, { message: `Reply ${HOSTILE}` });
    await waitRun(body.run_id, 'SUCCEEDED');
    const { page } = await newPage();
    await signIn(page, base, ALICE.key);
    expect(await page.textContent(`tr[data-run-id="${body.run_id}"] td.title`)).toBe(HOSTILE);
    await page.goto(`${base}/runs/${body.run_id}`);
    expect(await page.textContent('#run-title')).toBe(HOSTILE);
    expect(await page.textContent('#output')).toContain(HOSTILE);
    expect(await page.textContent('#artifacts')).toContain('<img src=x onerror=alert(1)>.txt');
    expect(await page.textContent('#artifacts')).toContain(HOSTILE);
    expect(await page.textContent('section[aria-labelledby=h-conversation]')).toContain(`Reply ${HOSTILE}`);
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('main img[src=x], main script, main i').count()).toBe(0);
    // Every kind of artifact: links out, the plan as text, the screenshot inline (under the CSP), the file to download.
    expect(await page.getAttribute('#artifacts a[href="https://example.com/acme/app/pull/7"]', 'rel')).toContain('noopener');
    expect(await page.textContent('#artifacts a[href="https://example.com/acme/app/pull/7"]')).toBe('fix-login');
    expect(await page.locator('#artifacts a[href="https://example.com/tickets/42"]').count()).toBeGreaterThan(0);
    expect(await page.textContent('#artifacts pre.plan')).toBe('# <i>plan</i>');
    await page.waitForFunction('document.querySelector("#artifacts img.shot")?.complete', undefined, { timeout: 10_000 });
    expect(await page.evaluate('document.querySelector("#artifacts img.shot").naturalWidth')).toBe(1);
    const download = await page.getAttribute('#artifacts a[download]', 'href');
    expect(await page.evaluate(`fetch(${JSON.stringify(download)}).then((r) => r.text())`)).toBe('hi');
    await page.close();
  });

  it('shows a second principal none of the first one\'s runs', async () => {
    const mine = await api('/api/v1/agent/runs', { prompt: 'Alice only', title: 'Alice only' });
    const { page } = await newPage();
    await signIn(page, base, BOB.key);
    expect(await page.textContent('#runs-empty')).toContain('No runs yet');
    const other = await page.goto(`${base}/runs/${mine.body.run_id}`);
    expect(other?.status()).toBe(404);
    await page.goto(`${base}/?creator=alice`);
    expect(await page.locator('tbody tr').count()).toBe(0);
    await Promise.all([page.waitForURL(/\/sign-in$/), page.click('text=Sign out')]);
    await page.close();
  });

  it('refuses a cross-origin form post and a post without the CSRF token', async () => {
    const before = (await t.raw('/api/v1/agent/runs?limit=100', { key: ALICE.key })).body.runs.length;
    const { page } = await newPage();
    await signIn(page, base, ALICE.key);
    // Another site's page posts a run form to the dashboard with the signed-in browser.
    const evil: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<form method="post" action="${base}/runs"><input name="prompt" value="evil"><button id="go">go</button></form>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const evilUrl = `http://localhost:${(evil.address() as AddressInfo).port}/`;
    await page.goto(evilUrl);
    const [answer] = await Promise.all([page.waitForResponse(`${base}/runs`), page.click('#go')]);
    expect(answer.status()).toBe(403);
    evil.close();

    const { cookie, csrf } = await signInByHttp(base, ALICE.key);
    const post = (fields: Record<string, string>, origin = base) =>
      fetch(`${base}/runs`, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
        redirect: 'manual',
      });
    const missing = await post({ prompt: 'no token' });
    expect(missing.status).toBe(403);
    expect(await missing.text()).toContain('csrf');
    expect((await post({ prompt: 'wrong token', csrf: 'x'.repeat(43) })).status).toBe(403);
    expect((await post({ prompt: 'other origin', csrf }, 'http://evil.example')).status).toBe(403);
    expect((await t.raw('/api/v1/agent/runs?limit=100', { key: ALICE.key })).body.runs.length).toBe(before);
    // With the token and from its own origin, the same post starts a run.
    const ok = await post({ prompt: 'with token', csrf });
    expect(ok.status).toBe(303);
    await page.close();
  });

  // Thirty axe runs and thirty more pages: on a machine busy with other work, longer than the describe's 90 s.
  it('has no serious or critical axe-core violation on any page, fits 360 px, and is captured light and dark', async () => {
    const { page } = await newPage();
    await signIn(page, base, ALICE.key);
    const runs = (await t.raw('/api/v1/agent/runs?limit=100', { key: ALICE.key })).body.runs as { run_id: string; title: string }[];
    // The first run of that title (it was run again since): the one with a follow-up.
    const done = runs.filter((r) => r.title === 'Fix the flaky login test').at(-1)!;
    const hostile = runs.find((r) => r.title === HOSTILE)!;
    const schedule = await api('/api/v1/agent/schedules', { name: 'Weekday triage', cron_schedule: '0 9 * * 1-5', prompt: 'Triage new issues' });
    const agent = await api('/api/v1/agent/identities', { name: 'reviewer', description: 'Reviews pull requests', prompt: 'Review carefully' });
    const worker = { worker_host: 'gpu', instance_id: 'gpu-box-1', version: '1.2.3', capacity: 4, harnesses: ['claude', 'codex'], environments: ['web'] };
    const connected = await t.raw('/api/v1/workers/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(worker), key: WORKER_TOKEN });
    expect(connected.status).toBe(200);
    // The Workers page first: the worker connected above counts as connected for a lease, a poll's wait and a
    // heartbeat's write (45 s) without a poll, which the passes below outlast on a loaded machine.
    const pages = [
      '/workers',
      '/',
      `/runs/${done.run_id}`,
      `/runs/${hostile.run_id}`,
      '/new',
      '/schedules',
      '/schedules/new',
      `/schedules/${schedule.body.id}/edit`,
      '/environments',
      '/skills',
      '/agents',
      `/agents/${agent.body.uid}/edit`,
      '/quota',
      '/?q=no-such-run',
      '/runs/no-such-run',
    ];
    // Light and dark each in a tab of its own (signed in alike: the context's cookie), at once: axe is the
    // browser's work, and its two schemes need not wait for each other.
    await Promise.all(
      (['light', 'dark'] as const).map(async (scheme) => {
        const tab = await browser.newPage();
        await tab.emulateMedia({ colorScheme: scheme });
        for (const path of pages) {
          await tab.goto(`${base}${path}`);
          if (path === '/environments' || path === '/skills' || path === '/workers') expect(await tab.locator('main tbody tr').count(), path).toBeGreaterThan(0);
          expect(await seriousViolations(tab), `${path} (${scheme})`).toEqual([]);
        }
        await tab.close();
      }),
    );
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of pages) {
      await page.goto(`${base}${path}`);
      expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
    }
    await page.setViewportSize({ width: 1200, height: 800 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, path] of [['runs', '/'], ['run', `/runs/${done.run_id}`]] as const) {
        await page.goto(`${base}${path}`);
        const shot = join(tmpdir(), `dashboard-${name}-${scheme}.png`);
        await page.screenshot({ path: shot });
        if (process.env.UPDATE_SCREENSHOTS === '1' && existsSync(DOCS)) copyFileSync(shot, join(DOCS, `dashboard-${name}-${scheme}.png`));
      }
    }
    await page.context().clearCookies();
    await page.goto(`${base}/sign-in`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  }, 180_000);

  it('works without JavaScript: pages show their data and forms work', async () => {
    const { page } = await newPage();
    await signIn(page, base, ALICE.key);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
    await page.goto(`${base}/new`);
    await page.fill('#prompt', 'Without a script');
    await Promise.all([page.waitForURL(/\/runs\/[^/]+$/), page.click('text=Start the run')]);
    const runId = page.url().split('/').pop()!;
    await waitRun(runId, 'SUCCEEDED');
    await page.reload();
    expect(await page.textContent('#run-state')).toBe('SUCCEEDED');
    expect(await page.textContent('#output')).toContain('All done');
    // The output's search is a GET form: the server filters the lines.
    await page.fill('#output-search', 'working');
    await Promise.all([page.waitForURL(/q=working/), page.click('text=Find')]);
    expect(await page.textContent('#output')).toBe('Working on: Without a script');
    await page.goto(`${base}/`);
    expect(await page.textContent(`tr[data-run-id="${runId}"]`)).toContain('SUCCEEDED');
    // Times stay in UTC, marked so, without the script that puts them in the viewer's zone.
    expect(await page.textContent(`tr[data-run-id="${runId}"] time`)).toMatch(/ UTC$/);
    await cdp.detach();
    await page.close();
  });

  it('shows times in the viewer\'s zone with the exact time on hover, and is usable with the keyboard', async () => {
    const { page } = await newPage();
    await signIn(page, base, ALICE.key);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Asia/Kolkata' });
    const inZone = async (iso: string, zone: string) => page.evaluate(`new Date(${JSON.stringify(iso)}).toLocaleString(undefined, { timeZone: ${JSON.stringify(zone)} })`);
    // The runs table: each run's age, its exact time in the viewer's zone on hover.
    await page.goto(`${base}/`);
    const created = (await page.getAttribute('tbody time', 'datetime'))!;
    expect(await page.textContent('tbody time')).toMatch(/^(just now|\d+[smhd] ago)$/);
    expect(await page.getAttribute('tbody time', 'title')).toBe(await inZone(created, 'Asia/Kolkata'));
    // A run's page: times in the viewer's zone, the exact time (ISO) on hover.
    await Promise.all([page.waitForURL(/\/runs\/[^/]+$/), page.click('tbody td.title a')]);
    const iso = (await page.getAttribute('dl.meta time', 'datetime'))!;
    expect(await page.getAttribute('dl.meta time', 'title')).toBe(iso);
    const kolkata = await inZone(iso, 'Asia/Kolkata');
    expect(await page.textContent('dl.meta time')).toBe(kolkata);
    expect(kolkata).not.toBe(await inZone(iso, 'UTC'));
    await page.goto(`${base}/`);
    // The first Tab reaches the skip link, drawn with a visible outline; Enter moves into the page.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#main$/);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.name')).toBe('state');
    await cdp.detach();
    await page.close();
  });

  it('hands files chosen in the start form to the agent, and says before sending when there are too many', async () => {
    const { page } = await newPage();
    await signIn(page, base, ALICE.key);
    await page.goto(`${base}/new`);
    const validation = () => page.$eval('#attachments', (el) => (el as unknown as { validationMessage: string }).validationMessage);
    await page.setInputFiles('#attachments', Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, mimeType: 'text/plain', buffer: Buffer.from('x') })));
    expect(await validation()).toContain('attachments: 6 files chosen; attach at most 5 files');
    await page.setInputFiles('#attachments', [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from the browser') }]);
    expect(await validation()).toBe('');
    await page.fill('#prompt', 'Read the attached files [files]');
    await Promise.all([page.waitForURL(/\/runs\/[^/]+$/), page.click('text=Start the run')]);
    await page.waitForFunction(textOf, ['#output', 'Attached: notes.txt=hello from the browser'] as const, { timeout: 20_000 });
    await page.close();
  });
});
