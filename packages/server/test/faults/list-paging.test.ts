import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const ALICE = 'key-of-alice-paging-123';
const BOB = 'key-of-bob-paging-45678';
const PROMPT = `Check the nightly build. ${'x'.repeat(10_000)}`;
const MANY = 120;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    apiKeys: [
      { key: ALICE, principal: 'alice' },
      { key: BOB, principal: 'bob' },
    ],
  });
  // The reproduction, scaled down: many schedules and named agents with long prompts, all of one principal.
  for (let i = 0; i < MANY; i++) {
    const schedule = await post('/api/v1/agent/schedules', { name: `nightly ${i}`, cron_schedule: '0 3 * * *', enabled: false, prompt: PROMPT });
    expect(schedule.status).toBe(201);
    const agent = await post('/api/v1/agent/identities', { name: `agent ${i}`, prompt: PROMPT });
    expect(agent.status).toBeLessThan(300);
  }
}, 120_000);
afterAll(() => t.close());

const post = (path: string, body: unknown) =>
  t.raw(path, { method: 'POST', key: ALICE, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe.each([
  ['schedules', '/api/v1/agent/schedules', 'schedules', (item: { name: string }) => item.name, 'nightly'],
  ['named agents', '/api/v1/agent/identities', 'agents', (item: { name: string }) => item.name, 'agent'],
] as const)('the list of %s', (_, path, member, nameOf, prefix) => {
  it('answers at most 100 by default, with a cursor to the rest', async () => {
    const res = await t.raw(path, { key: ALICE });
    expect(res.status).toBe(200);
    expect(res.body[member]).toHaveLength(100);
    expect(res.body.page_info).toEqual({ has_next_page: true, next_cursor: expect.any(String) });
  });

  it('pages through every one, oldest first, none twice', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res = await t.raw(`${path}?limit=50${cursor ? `&cursor=${cursor}` : ''}`, { key: ALICE });
      expect(res.status).toBe(200);
      names.push(...res.body[member].map(nameOf));
      if (!res.body.page_info.has_next_page) break;
      cursor = res.body.page_info.next_cursor;
    }
    expect(names).toEqual(Array.from({ length: MANY }, (_, i) => `${prefix} ${i}`));
  });

  it('answers a key with none an empty page, not a page of someone else’s', async () => {
    const res = await t.raw(`${path}?limit=1`, { key: BOB });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ [member]: [], page_info: { has_next_page: false } });
  });

  it('refuses a limit out of range and a cursor it did not make, naming the field', async () => {
    const limit = await t.raw(`${path}?limit=501`, { key: ALICE });
    expect(limit.status).toBe(400);
    expect(limit.body.detail).toMatch(/^limit: must be an integer from 1 to 500/);
    const cursor = await t.raw(`${path}?cursor=bm9wZQ`, { key: ALICE });
    expect(cursor.status).toBe(400);
    expect(cursor.body.detail).toBe('cursor: not a cursor from this server; pass page_info.next_cursor as it came.');
  });
});
