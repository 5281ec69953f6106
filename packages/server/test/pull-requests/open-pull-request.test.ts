import { afterEach, describe, expect, it } from 'vitest';
import { openPullRequest } from '../../src/pull-requests/open-pull-request.js';
import { scriptedGithub } from '../support/scripted-github.js';

const TOKEN = 'ghp_secretTOKEN1234567890';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => Promise.all(closers.splice(0).map((c) => c())));

async function github(answer: Parameters<typeof scriptedGithub>[1]) {
  const api = await scriptedGithub(TOKEN, answer);
  closers.push(api.close);
  return api;
}

const pr = (apiUrl: string, token = TOKEN) => ({ apiUrl, token, owner: 'acme', repo: 'web', head: 'agent-runs/abcdef12', base: 'main', title: '-x Fix it', body: 'Summary', draft: true });

describe('opening a pull request', () => {
  it('posts to the repository\'s pulls with the token and answers its URL', async () => {
    const api = await github({ status: 201, number: 7 });
    expect(await openPullRequest(pr(api.url))).toEqual({ ok: true, url: 'https://github.com/acme/web/pull/7', number: 7 });
    expect(api.seen).toEqual([
      { method: 'POST', path: '/repos/acme/web/pulls', authorization: `token ${TOKEN}`, body: { head: 'agent-runs/abcdef12', base: 'main', title: '-x Fix it', body: 'Summary', draft: true } },
    ]);
  });

  it('names a pull request that exists already (422), without the token', async () => {
    const api = await github({ status: 422, message: 'Validation Failed', errors: [{ message: 'A pull request already exists for acme:agent-runs/abcdef12.' }] });
    const result = await openPullRequest(pr(api.url));
    expect(result).toMatchObject({ ok: false, detail: expect.stringMatching(/^GitHub answered 422 \(Validation Failed; A pull request already exists for acme:agent-runs\/abcdef12\.\)/) });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('says to replace an expired token (401)', async () => {
    const api = await github({ status: 201, number: 1 });
    const result = await openPullRequest(pr(api.url, 'ghp_expired'));
    expect(result).toMatchObject({ ok: false, detail: expect.stringMatching(/^GitHub answered 401 \(Bad credentials\): the credential's token is wrong or expired/) });
  });
});
