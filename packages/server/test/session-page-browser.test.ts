import { chmodSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeServerConfig } from './support/server-config.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';
import { launchChromium } from './support/system-chromium.js';

// The screenshot the README shows; `UPDATE_SCREENSHOTS=1` writes it there, otherwise to the temp dir.
const README_SCREENSHOT = fileURLToPath(new URL('../docs/session-page-live.png', import.meta.url));

type PageGlobals = { document: { getElementById(id: string): { textContent: string | null } | null } };

// The agent goes on once the test opens this gate (or after 30 s), so a slow page load under
// load cannot find the run already over.
const gateDir = mkdtempSync(join(tmpdir(), 'session-page-gate-'));
chmodSync(gateDir, 0o755); // The agent (the agent user of a root server) watches it, shown read-only in its sandbox.
const GATE = join(gateDir, 'open');

let t: TestServer;
let browser: BrowserContext;
beforeAll(async () => {
  t = await startTestServer({
    executor: 'command',
    command:
      `echo "Cloning the repository"; for i in $(seq 600); do [ -e '${GATE}' ] && break; sleep 0.05; done; ` +
      'echo "Running the tests: 42 passed"; sleep 0.2; echo "Opened a pull request"',
    configFile: writeServerConfig({ sandbox_read_only: [gateDir] }),
  });
  browser = await launchChromium();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  rmSync(gateDir, { recursive: true, force: true });
});

describe('the session page in a browser', () => {
  it('goes from INPROGRESS to SUCCEEDED and shows the output as it comes, without a reload', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Fix the flaky login test', title: 'Fix the flaky login test' });
    let run = await t.client.runs.get(run_id);
    while (run.state === 'QUEUED') run = await t.client.runs.get(run_id);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    let loads = 0;
    page.on('load', () => loads++);

    await page.goto(run.session_link!);
    expect(await page.textContent('#run-state')).toBe('INPROGRESS');
    // Runs in the page (the tests are type-checked without the DOM library; the CSP forbids string evaluation).
    const shows = ([id, expected]: readonly [string, string]) =>
      (globalThis as unknown as PageGlobals).document.getElementById(id)?.textContent?.includes(expected) ?? false;
    await page.waitForFunction(shows, ['output', 'Cloning the repository'] as const, { timeout: 15_000 });
    writeFileSync(GATE, '');
    await page.waitForFunction(shows, ['output', 'Running the tests'] as const, { timeout: 15_000 });
    await page.waitForFunction(shows, ['run-state', 'SUCCEEDED'] as const, { timeout: 15_000 });
    const output = await page.textContent('#output');
    expect(output).toBe('Cloning the repository\nRunning the tests: 42 passed\nOpened a pull request\n');
    expect(await page.title()).toBe('Fix the flaky login test · SUCCEEDED');
    expect(await page.textContent('#live-note')).toBe('The run is over.');
    expect(loads).toBe(1);
    // The page's CSP allowed its script and stream: nothing was blocked.
    expect(problems, problems.join("\n")).toEqual([]);

    const shot = join(tmpdir(), 'session-page-live.png');
    await page.screenshot({ path: shot, fullPage: true });
    if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(shot, README_SCREENSHOT);
    await page.close();
  });
});
