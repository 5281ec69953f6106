import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareRemote as remote, git, runBranches as branches } from '../support/git-remote.js';
import { EDITING_AGENT as AGENT } from '../support/editing-agent.js';
import { scriptedGithub } from '../support/scripted-github.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { eventually } from '../support/eventually.js';
import { signInByHttp } from '../dashboard/dashboard-support.js';

/**
 * A run's changes as a pull request, end to end: a real server runs the command agent in a
 * checkout of a real remote (a bare repository on disk), pushes its branch there and opens
 * the pull request through octokit against a scripted GitHub API on loopback.
 */

const TOKEN = 'ghp_pushTOKENnever4agents0123456789';

const remotes = { main: remote(), refusing: remote(), off: remote(), slow: remote() };
writeFileSync(join(remotes.refusing, 'hooks', 'pre-receive'), '#!/bin/sh\necho "protected branch: pushes are refused" >&2\nexit 1\n');
chmodSync(join(remotes.refusing, 'hooks', 'pre-receive'), 0o755);
const tokenFile = join(tempTree({ token: TOKEN }), 'token');
const workRoot = tempTree({}, 'agent-runs-pr-work-');

let t: TestServer;
let api: Awaited<ReturnType<typeof scriptedGithub>>;
// A GitHub that takes 3 s to open a pull request: time for a cancel to come while it does.
let slowApi: Awaited<ReturnType<typeof scriptedGithub>>;
beforeAll(async () => {
  api = await scriptedGithub(TOKEN, { status: 201, number: 42 });
  slowApi = await scriptedGithub(TOKEN, { status: 201, number: 7, delayMs: 3000 });
  const pullRequests = (mode: string, apiUrl = api.url) => ({ mode, credential: 'GH_TOKEN', api_url: apiUrl });
  t = await startTestServer({
    executor: 'command',
    command: AGENT,
    workDir: workRoot,
    configFile: writeServerConfig({
      secrets: { GH_TOKEN: { from_file: tokenFile } },
      environments: {
        web: { repos: [{ url: remotes.main, path: 'web', pull_requests: pullRequests('ready') }] },
        refusing: { repos: [{ url: remotes.refusing, path: 'web', pull_requests: pullRequests('draft') }] },
        asked: { repos: [{ url: remotes.off, path: 'web', pull_requests: pullRequests('off') }] },
        plain: { repos: [{ url: remote(), path: 'web' }] },
        slow: { repos: [{ url: remotes.slow, path: 'web', pull_requests: pullRequests('ready', slowApi.url) }] },
      },
    }),
  });
});
afterAll(async () => {
  await t?.close();
  await api?.close();
  await slowApi?.close();
  rmSync(workRoot, { recursive: true, force: true });
});

const ended = (runId: string) => eventually(() => t.client.runs.get(runId), (run) => ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED', 'BLOCKED'].includes(run.state), 20_000);
const prArtifacts = (run: { artifacts?: { artifact_type: string; data?: unknown }[] | null | undefined }) => (run.artifacts ?? []).filter((a) => a.artifact_type === 'PULL_REQUEST').map((a) => a.data);

describe('a run whose environment takes pull requests', () => {
  it('ends with its branch pushed, holding exactly its changes, and a pull request opened with its summary', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'write first line', config: { environment_id: 'web' } });
    const run = await ended(run_id);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const branch = `agent-runs/${run_id}`;
    expect(prArtifacts(run)).toEqual([expect.objectContaining({ url: 'https://github.com/acme/web/pull/42', branch })]);
    expect(run.status_message?.message).toContain('Pull request opened: https://github.com/acme/web/pull/42');
    expect(git(remotes.main, 'diff', '--name-only', 'main', branch).trim()).toBe('notes.txt');
    expect(git(remotes.main, 'show', `${branch}:notes.txt`)).toBe('first line\n');
    // The body links the run's page, which asks for a sign-in.
    const opened = api.seen.find((r) => r.path.endsWith('/pulls'))!;
    expect(opened).toMatchObject({ method: 'POST', authorization: `token ${TOKEN}`, body: { head: branch, base: 'main', draft: false } });
    expect((opened.body as { body: string }).body).toContain(`${t.server.url}/runs/${run_id}`);
    // The agent never had the token: not among its variables, not in anything the run shows.
    const output = (await t.client.runs.output(run_id)).text;
    expect(output).toContain('"PATH"');
    expect(JSON.stringify(run) + output).not.toContain(TOKEN);

    // The dashboard's run page links it, with how it was opened.
    const { cookie } = await signInByHttp(t.server.url, t.server.apiKey);
    const page = await (await fetch(`${t.server.url}/runs/${run_id}`, { headers: { cookie } })).text();
    expect(page).toMatch(/Pull request: <a href="https:\/\/github.com\/acme\/web\/pull\/42"[^>]*>agent-runs\/[^<]+<\/a> <span class="muted">\(opened ready for review\)<\/span>/);

    // A follow-up's changes are a new commit on the same branch, and a comment on the pull request.
    await t.client.runs.followup(run_id, { message: 'again' });
    const again = await eventually(() => t.client.runs.get(run_id), (r) => r.state === 'SUCCEEDED' && (r.status_message?.message ?? '').includes('updated'), 20_000);
    expect(again.status_message?.message).toContain('Pull request updated: https://github.com/acme/web/pull/42');
    expect(git(remotes.main, 'rev-list', '--count', `main..${branch}`).trim()).toBe('2');
    expect(prArtifacts(again)).toHaveLength(1);
    const comment = api.seen.find((r) => r.path === '/repos/acme/web/issues/42/comments');
    expect((comment?.body as { body: string }).body).toMatch(/^Follow-up \(execution 2\) pushed to agent-runs\//);
  }, 60_000);

  it('keeps its outcome and its changes.patch when the remote refuses the push, and says what failed', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'write refused line', config: { environment_id: 'refusing' } });
    const run = await ended(run_id);
    expect(run.state).toBe('SUCCEEDED');
    expect(run.status_message?.message).toMatch(/No pull request for acme\/web: the push failed \(.*pushes are refused.*\); the changes are kept in changes\.patch\./);
    expect(prArtifacts(run)).toEqual([]);
    expect(run.artifacts?.some((a) => (a.data as { filename?: string }).filename === 'changes.patch')).toBe(true);
    expect(branches(remotes.refusing)).toBe('');
  }, 30_000);

  it('opens one where the environment is off only when the run asks, and refuses to ask where no repository takes one', async () => {
    const plain = await t.client.runs.create({ prompt: 'write nothing asked', config: { environment_id: 'asked' } });
    expect((await ended(plain.run_id)).state).toBe('SUCCEEDED');
    expect(branches(remotes.off)).toBe('');
    const asked = await t.client.runs.create({ prompt: 'write asked for', config: { environment_id: 'asked', pull_request: 'draft' } });
    const run = await ended(asked.run_id);
    expect(prArtifacts(run)).toHaveLength(1);
    expect(branches(remotes.off)).toBe(`agent-runs/${asked.run_id}`);
    const refused = await t.raw('/api/v1/agent/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'x', config: { environment_id: 'plain', pull_request: 'ready' } }) });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/config\.pull_request.*environment \\"plain\\" has no repository with pull_requests settings.*environments that allow one: web, refusing, asked/);
  }, 30_000);

  it('pushes nothing for a cancelled run', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'hang half done', config: { environment_id: 'web' } });
    await eventually(() => t.client.runs.get(run_id), (r) => r.state === 'INPROGRESS', 20_000);
    await eventually(() => t.client.runs.output(run_id), (o) => o.text.includes('"PATH"'), 20_000);
    await t.client.runs.cancel(run_id);
    expect((await ended(run_id)).state).toBe('CANCELLED');
    expect(branches(remotes.main)).not.toContain(`agent-runs/${run_id}`);
  }, 30_000);

  it('cancelled while its pull request is being opened: ends CANCELLED, still pointing to the branch and pull request it made', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'write before the cancel', config: { environment_id: 'slow' } });
    await eventually(async () => slowApi.seen.some((r) => r.path.endsWith('/pulls')), (opening) => opening, 20_000);
    await t.client.runs.cancel(run_id);
    expect((await ended(run_id)).state).toBe('CANCELLED');
    const run = await eventually(() => t.client.runs.get(run_id), (r) => prArtifacts(r).length > 0, 20_000);
    expect(run.state).toBe('CANCELLED');
    expect(prArtifacts(run)).toEqual([expect.objectContaining({ url: 'https://github.com/acme/web/pull/7', branch: `agent-runs/${run_id}` })]);
    expect(branches(remotes.slow)).toBe(`agent-runs/${run_id}`);
  }, 30_000);
});
