import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { signInByHttp } from './dashboard-support.js';

/** `/quota`: the signed-in principal's quotas and its use of them, as `GET /agent/quota` counts them. */
const KEY = 'dashboard-quota-key-0123456789';
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    apiKeys: [{ key: KEY, principal: 'alice' }],
    configFile: writeServerConfig({ quotas: { default: { creates_per_minute: 10, spend_per_day_usd: 5 } } }),
  });
});
afterAll(async () => {
  await t?.close();
});

describe('the quotas page', () => {
  it('shows each quota with its use, its limit and a bar, and none where no quota applies', async () => {
    for (let i = 0; i < 3; i++) await t.client.runs.create({ prompt: `Work ${i} [simulate 10ms]` });
    const { cookie } = await signInByHttp(t.server.url, KEY);
    const res = await fetch(`${t.server.url}/quota`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const page = await res.text();
    const row = (name: string) => new RegExp(`<tr><th scope="row"><code>${name}</code>.*?</tr>`).exec(page)?.[0] ?? '';
    expect(row('creates_per_minute')).toMatch(/<td>3<\/td><td>10<\/td><td><progress max="10" value="3"/);
    expect(row('runs_in_flight')).toContain('<span class="muted">none</span>');
    expect(row('spend_per_day_usd')).toMatch(/<td>\$0\.0000<\/td><td>\$5\.00<\/td><td><progress max="5" value="0"/);
    expect(page).toContain('<code>alice</code>');
    expect(page).toContain('href="/quota"');
  });
});
