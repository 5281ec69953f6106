import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spendingClaude, withHarnessKey } from '../support/spending-claude.js';
import { writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { signInByHttp } from './dashboard-support.js';

/** A run's page shows its spend against the caps of its budget, from the usage its harness reported. */
const KEY = 'dashboard-spend-key-0123456789';
let t: TestServer;
beforeAll(async () => {
  t = await withHarnessKey(() => startTestServer({ apiKeys: [{ key: KEY, principal: 'alice' }], configFile: writeServerConfig({ harnesses: { claude: spendingClaude(0.05) } }) }));
});
afterAll(async () => {
  await t?.close();
});

describe('the spend bars on a run page', () => {
  it('draws one bar per cap, with the spend in words, and none for a run without caps', async () => {
    // Two messages of 100,000 input tokens: $0.60.
    const capped = await t.client.runs.create({ prompt: 'MESSAGES=2 TOKENS=100000', config: { harness: { type: 'claude' }, budget: { max_cost_usd: 2, max_tokens: 1_000_000 } } });
    const plain = await t.client.runs.create({ prompt: 'MESSAGES=1 TOKENS=1000', config: { harness: { type: 'claude' } } });
    for (const id of [capped.run_id, plain.run_id]) expect((await t.client.runs.wait(id, { timeout: 20_000 })).state).toBe('SUCCEEDED');
    const { cookie } = await signInByHttp(t.server.url, KEY);
    const page = await (await fetch(`${t.server.url}/runs/${capped.run_id}`, { headers: { cookie } })).text();
    expect(page).toContain('<dt>Cost budget</dt><dd><progress max="2" value="0.6" aria-label="Cost spent of its cap">$0.6000 of $2.00</progress> $0.6000 of $2.00</dd>');
    expect(page).toContain('<dt>Tokens budget</dt><dd><progress max="1000000" value="200000"');
    expect(page).toContain('200,000 of 1,000,000');
    const plainPage = await (await fetch(`${t.server.url}/runs/${plain.run_id}`, { headers: { cookie } })).text();
    expect(plainPage).not.toContain('id="spend"');
  });
});
