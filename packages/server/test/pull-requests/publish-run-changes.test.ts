import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RepoSource } from '../../src/domain/server-config.js';
import { publishRunChanges, quietMentions } from '../../src/pull-requests/publish-run-changes.js';
import { gitRepo } from '../support/git-repo.js';
import { scriptedGithub } from '../support/scripted-github.js';

const TOKEN = 'ghp_secretTOKEN1234567890';
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
const closers: (() => Promise<void>)[] = [];
afterEach(async () => Promise.all(closers.splice(0).map((c) => c())));

/** A bare remote, and a working directory's patch that adds web/notes.txt (as the executor prints it, under web/). */
function remoteAndPatch(): { remote: string; patch: string } {
  const source = gitRepo({ 'README.md': 'hello\n' });
  const remote = join(mkdtempSync(join(tmpdir(), 'agent-runs-remote-')), 'web.git');
  git(tmpdir(), 'clone', '-q', '--bare', source, remote);
  writeFileSync(join(source, 'notes.txt'), 'written by the agent\n');
  git(source, 'add', '-A');
  return { remote, patch: git(source, 'diff', '--cached', '--binary', '--src-prefix=a/web/', '--dst-prefix=b/web/') };
}

async function github(answer: Parameters<typeof scriptedGithub>[1], app?: Parameters<typeof scriptedGithub>[2]) {
  const api = await scriptedGithub(TOKEN, answer, app);
  closers.push(api.close);
  return api;
}

const changes = (patch: string) => ({ runId: 'abcdef1234567890', title: '-rf Add notes', result: 'Added notes.txt for @octocat.', details: ['Run: http://127.0.0.1/runs/abcdef12', 'Cost: $0.01, tokens: 1200'], patch, execution: 1, earlier: [] as string[] });
const repo = (remote: string, apiUrl: string, mode: 'draft' | 'ready' | undefined): RepoSource => ({
  url: remote,
  path: 'web',
  owner: 'acme',
  repo: 'web',
  ...(mode ? { pullRequests: { mode, credential: { kind: 'token', secret: 'GH_TOKEN' }, apiUrl } } : {}),
});
const secrets = (name: string) => (name === 'GH_TOKEN' ? TOKEN : undefined);

describe('publishing a run\'s changes', () => {
  it('pushes the branch with exactly the run\'s changes and opens a draft pull request with the summary', async () => {
    const { remote, patch } = remoteAndPatch();
    const api = await github({ status: 201, number: 12 });
    const published = await publishRunChanges([repo(remote, api.url, 'draft')], changes(patch), secrets);
    expect(published).toEqual({ artifacts: [{ type: 'PULL_REQUEST', data: { url: 'https://github.com/acme/web/pull/12', branch: 'agent-runs/abcdef1234567890', draft: true } }], notes: ['Pull request opened: https://github.com/acme/web/pull/12'] });
    expect(git(remote, 'diff', '--name-only', 'main', 'agent-runs/abcdef1234567890').trim()).toBe('notes.txt');
    expect(api.seen).toHaveLength(1);
    expect(api.seen[0]).toMatchObject({ path: '/repos/acme/web/pulls', authorization: `token ${TOKEN}` });
    expect(api.seen[0]!.body).toEqual({ head: 'agent-runs/abcdef1234567890', base: 'main', title: '-rf Add notes', draft: true, body: 'Added notes.txt for @\u200boctocat.\n\nRun: http://127.0.0.1/runs/abcdef12\nCost: $0.01, tokens: 1200' });
  });

  it('names a 422 (a pull request exists) and keeps the branch, without the token', async () => {
    const { remote, patch } = remoteAndPatch();
    const api = await github({ status: 422, message: 'Validation Failed', errors: [{ message: 'A pull request already exists for acme:agent-runs/abcdef1234567890.' }] });
    const published = await publishRunChanges([repo(remote, api.url, 'ready')], changes(patch), secrets);
    expect(published.artifacts).toEqual([]);
    expect(published.notes).toEqual([expect.stringMatching(/^Branch agent-runs\/abcdef1234567890 pushed to acme\/web, but no pull request: GitHub answered 422 .*A pull request already exists/)]);
    expect(JSON.stringify(published)).not.toContain(TOKEN);
  });

  it('pushes nothing and calls no API when pull requests are off', async () => {
    const { remote, patch } = remoteAndPatch();
    const api = await github({ status: 201, number: 1 });
    expect(await publishRunChanges([repo(remote, api.url, undefined)], changes(patch), secrets)).toEqual({ artifacts: [], notes: [] });
    expect(git(remote, 'branch', '--list', 'agent-runs/*').trim()).toBe('');
    expect(api.seen).toEqual([]);
  });

  it('with a GitHub App, pushes and opens with an installation token minted for the repository, never sending the key', async () => {
    const { remote, patch } = remoteAndPatch();
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // TOKEN is what the App's installation mints here: pulls are refused with anything else.
    const api = await github({ status: 201, number: 5 }, { id: 4242, publicKey, installationId: 77 });
    const app = (installationId?: number): RepoSource => ({
      url: remote,
      path: 'web',
      owner: 'acme',
      repo: 'web',
      pullRequests: { mode: 'ready', credential: { kind: 'app', appId: 4242, privateKey: 'APP_KEY', installationId }, apiUrl: api.url },
    });
    const published = await publishRunChanges([app()], changes(patch), (name) => (name === 'APP_KEY' ? pem : undefined));
    expect(published.notes).toEqual(['Pull request opened: https://github.com/acme/web/pull/5']);
    // Found its installation with its JWT, minted a token for web alone, opened the pull request with it.
    expect(api.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /repos/acme/web/installation', 'POST /app/installations/77/access_tokens', 'POST /repos/acme/web/pulls']);
    expect(api.seen[1]!.body).toMatchObject({ repositories: ['web'] });
    expect(api.seen[2]!.authorization).toBe(`token ${TOKEN}`);
    expect(JSON.stringify(api.seen)).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(published)).not.toContain(TOKEN);
  });

  it('names a GitHub App whose key GitHub does not take, keeping the changes', async () => {
    const { remote, patch } = remoteAndPatch();
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const api = await github({ status: 201, number: 5 }, { id: 4242, publicKey, installationId: 77 });
    const repo: RepoSource = { url: remote, path: 'web', owner: 'acme', repo: 'web', pullRequests: { mode: 'ready', credential: { kind: 'app', appId: 4242, privateKey: 'APP_KEY', installationId: 77 }, apiUrl: api.url } };
    const published = await publishRunChanges([repo], changes(patch), () => other);
    expect(published.notes).toEqual([expect.stringMatching(/^No pull request for acme\/web: the GitHub App 4242 could not get a token for acme\/web: GitHub answered 401: .*\(check app_id and the private key\); the changes are kept in changes\.patch\.$/)]);
    expect(git(remote, 'branch', '--list', 'agent-runs/*').trim()).toBe('');
    expect(JSON.stringify(published)).not.toContain('PRIVATE KEY');
  });

  it('keeps the agent\'s words from mentioning people or teams on GitHub', () => {
    expect(quietMentions('Pinged @octocat and @acme/security, mailed a@b.c; @ alone stays')).toBe('Pinged @\u200boctocat and @\u200bacme/security, mailed a@\u200bb.c; @ alone stays');
  });
});
