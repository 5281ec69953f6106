import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { signInByHttp } from './dashboard-support.js';

/** A run's page draws the runs it started, and theirs, with their states and links; a child's page links its parent. */
const KEY = 'dashboard-tree-key-0123456789';
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ apiKeys: [{ key: KEY, principal: 'alice' }] });
});
afterAll(async () => {
  await t?.close();
});

describe('the tree on a run page', () => {
  it('lists the children and grandchildren with links and states, and links a child back to its parent', async () => {
    const root = await t.client.runs.create({ prompt: 'Plan [simulate 10ms]', title: 'The plan' });
    const child = await t.client.runs.create({ prompt: 'Part one [simulate 10ms]', title: '<b>Part one</b>', parent_run_id: root.run_id });
    const grandchild = await t.client.runs.create({ prompt: 'Detail [simulate 10ms]', title: 'Detail', parent_run_id: child.run_id });
    await t.client.runs.wait(grandchild.run_id, { timeout: 10_000 });
    const { cookie } = await signInByHttp(t.server.url, KEY);
    const page = await (await fetch(`${t.server.url}/runs/${root.run_id}`, { headers: { cookie } })).text();
    const section = /<section aria-labelledby="h-children"[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    expect(section).toContain(`<a href="/runs/${child.run_id}">&lt;b&gt;Part one&lt;/b&gt;</a>`);
    // The grandchild nested inside the child's item.
    expect(section).toMatch(new RegExp(`Part one&lt;/b&gt;</a><ul class="run-tree"><li>.*href="/runs/${grandchild.run_id}">Detail</a>`));
    expect(section.match(/SUCCEEDED/g)?.length).toBeGreaterThanOrEqual(2);
    const childPage = await (await fetch(`${t.server.url}/runs/${child.run_id}`, { headers: { cookie } })).text();
    expect(childPage).toContain(`<dt>Started by</dt><dd><a href="/runs/${root.run_id}">`);
    // A run that started none shows no section.
    const leaf = await (await fetch(`${t.server.url}/runs/${grandchild.run_id}`, { headers: { cookie } })).text();
    expect(leaf).not.toContain('h-children');
  });
});
