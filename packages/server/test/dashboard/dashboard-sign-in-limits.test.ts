import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInAttempts } from '../../src/dashboard/sign-in-attempts.js';
import { rawRequest } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const KEY = 'dashboard-limits-key-0123456789';
let t: TestServer;
let base: string;
beforeAll(async () => {
  t = await startTestServer({ apiKeys: [{ key: KEY, principal: 'alice' }] });
  base = t.server.url;
});
afterAll(async () => {
  await t?.close();
});

/** A sign-in posted from `from`, one of the loopback addresses (all of 127.0.0.0/8 is this machine). */
const signIn = (apiKey: string, from: string) =>
  rawRequest(`${base}/sign-in`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: apiKey, next: '/' }).toString(),
    localAddress: from,
  });

describe('dashboard sign-in attempts', () => {
  it('answer ten wrong keys from one address, then refuse it (any key) until tries come back, and no other address', async () => {
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn(`wrong-${i}`, '127.0.0.1')));
    expect(burst.map((res) => res.status)).toEqual(Array(10).fill(401));
    // Each refused attempt spends a try as well: four more keep the address out for about four seconds.
    const refused = [];
    for (let i = 0; i < 4; i++) refused.push(await signIn(`wrong-more-${i}`, '127.0.0.1'));
    expect(refused.map((res) => res.status)).toEqual([429, 429, 429, 429]);
    expect(refused[0]!.text).toContain('Too many wrong keys from your address: try again in ');
    expect(Number(refused[3]!.headers['retry-after'])).toBeGreaterThanOrEqual(2);
    // Refused before the key is looked at: the right one gets no session either.
    const right = await signIn(KEY, '127.0.0.1');
    expect([right.status, right.headers['set-cookie']]).toEqual([429, undefined]);
    // Another address is not held back by this one's guesses.
    expect((await signIn(KEY, '127.0.0.2')).status).toBe(303);
    // Once the time Retry-After names has passed (polling sooner would push it back), the key is looked at again.
    await new Promise((resolve) => setTimeout(resolve, Number(right.headers['retry-after']) * 1000));
    expect((await signIn(KEY, '127.0.0.1')).status).toBe(303);
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
