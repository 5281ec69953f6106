import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** What a test reads in the page (the tests are type-checked without the DOM library). */
export type PageGlobals = {
  document: {
    getElementById(id: string): { textContent: string | null } | null;
    querySelector(selector: string): { textContent: string | null } | null;
    querySelectorAll(selector: string): { length: number };
    documentElement: { scrollWidth: number };
  };
  __pwned?: unknown;
};

/** Signs in through the form, as a person does. */
export async function signIn(page: Page, baseUrl: string, key: string): Promise<void> {
  // The browser's pages share one profile: whoever signed in last is signed out first.
  await page.context().clearCookies();
  await page.goto(`${baseUrl}/`);
  await page.fill('#api-key', key);
  await Promise.all([page.waitForURL(`${baseUrl}/`), page.click('button[type=submit]')]);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown }[];
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const { violations, passes } = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[]; passes: unknown[] }> } }).axe;
    const result = await axe.run();
    return { violations: result.violations, passes: result.passes.length };
  });
  // An axe that checked nothing would pass every page.
  if (passes === 0) throw new Error('axe-core checked nothing on the page');
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** Signs in without a browser and returns the cookie and the CSRF token of the session. */
export async function signInByHttp(baseUrl: string, key: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${baseUrl}/sign-in`, {
    method: 'POST',
    headers: { origin: baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: key, next: '/' }),
    redirect: 'manual',
  });
  const cookie = /agent_runs_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (res.status !== 303 || !cookie) throw new Error(`sign-in answered ${res.status}`);
  const page = await (await fetch(`${baseUrl}/new`, { headers: { cookie } })).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error('no CSRF token on the page');
  return { cookie, csrf };
}
