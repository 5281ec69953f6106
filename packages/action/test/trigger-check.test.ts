import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverInputs, startActionServer } from './support/action-server.js';
import { startRecorder } from './support/loopback-recorder.js';
import { runStep } from './support/runner.js';

/**
 * Who may start an agent from a pull request or a comment, checked by the bundled action as
 * the runner runs it, before it creates anything. GitHub's API is out of reach here: a
 * loopback recorder answers the collaborator permission.
 */
let env: Awaited<ReturnType<typeof startActionServer>>;
let github: Awaited<ReturnType<typeof startRecorder>>;
let permission = 'read';
beforeAll(async () => {
  env = await startActionServer();
  github = await startRecorder(() => ({ status: 200, body: { permission, user: { login: 'alice' } } }));
});
afterAll(async () => {
  await github.close();
  await env.close();
});

const repo = (fullName: string) => ({ full_name: fullName });
const pullRequest = (association: string, head = 'acme/web') => ({
  pull_request: { number: 7, author_association: association, head: { repo: repo(head) }, base: { repo: repo('acme/web') } },
});
const issueComment = (association: string) => ({
  issue: { number: 9, author_association: 'OWNER', pull_request: {} },
  comment: { body: '/agent fix this', author_association: association, user: { login: 'alice' } },
});

async function runCount(): Promise<number> {
  return (await env.client.runs.list({ limit: 100 })).runs.length;
}

async function step(event: string, payload: unknown, inputs: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'trigger-'));
  writeFileSync(join(dir, 'event.json'), JSON.stringify(payload));
  const before = await runCount();
  const result = await runStep({
    inputs: serverInputs(env.server, { prompt: 'Fix it [simulate 50ms]', ...inputs }),
    env: {
      GITHUB_REPOSITORY: 'acme/web',
      GITHUB_WORKFLOW: 'Agent',
      GITHUB_EVENT_NAME: event,
      GITHUB_EVENT_PATH: join(dir, 'event.json'),
      GITHUB_ACTOR: 'alice',
      GITHUB_API_URL: github.url,
    },
  });
  return { result, created: (await runCount()) - before };
}

describe('the trigger check', () => {
  it('refuses a pull request from a fork, naming allow-forks, and creates no run', async () => {
    const { result, created } = await step('pull_request_target', pullRequest('MEMBER', 'mallory/web'));
    expect(result.code).toBe(1);
    expect(result.error).toContain('fork mallory/web');
    expect(result.error).toContain('allow-forks: true');
    expect(created).toBe(0);
  });

  it('refuses a comment by an actor with author_association NONE, naming allowed-actors, and creates no run', async () => {
    const { result, created } = await step('issue_comment', issueComment('NONE'));
    expect(result.code).toBe(1);
    expect(result.error).toContain('as NONE');
    expect(result.error).toContain('allowed-actors');
    expect(created).toBe(0);
  });

  it.each(['OWNER', 'MEMBER', 'COLLABORATOR'])('lets a comment by an %s start the run', async (association) => {
    const { result, created } = await step('issue_comment', issueComment(association));
    expect(result.code, result.error).toBe(0);
    expect(result.outputs.state).toBe('SUCCEEDED');
    expect(created).toBe(1);
  });

  it('with allow-forks: true, lets a collaborator\'s pull request from a fork start the run, and says so', async () => {
    const { result, created } = await step('pull_request', pullRequest('COLLABORATOR', 'alice/web'), { 'allow-forks': 'true' });
    expect(result.code, result.error).toBe(0);
    expect(result.stdout).toContain('::warning::allow-forks: true: starting a run for a pull request from the fork alice/web.');
    expect(created).toBe(1);
  });

  it('lets an actor that allowed-actors names start the run whatever their association', async () => {
    const { result, created } = await step('issue_comment', issueComment('FIRST_TIME_CONTRIBUTOR'), { 'allowed-actors': 'bob, alice' });
    expect(result.code, result.error).toBe(0);
    expect(created).toBe(1);
  });

  it('with github-token, asks GitHub for the actor\'s permission: write proceeds, read is refused', async () => {
    permission = 'write';
    const writer = await step('issue_comment', issueComment('CONTRIBUTOR'), { 'github-token': 'ghs_permission_token' });
    expect(writer.result.code, writer.result.error).toBe(0);
    expect(writer.created).toBe(1);
    const asked = github.requests.at(-1)!;
    expect(asked.url).toBe('/repos/acme/web/collaborators/alice/permission');
    expect(asked.headers.authorization).toBe('token ghs_permission_token');

    permission = 'read';
    const reader = await step('issue_comment', issueComment('CONTRIBUTOR'), { 'github-token': 'ghs_permission_token' });
    expect(reader.result.code).toBe(1);
    expect(reader.result.error).toContain('cannot write the repository');
    expect(reader.created).toBe(0);
  });

  it('names a malformed allowed-actors entry and creates no run', async () => {
    const { result, created } = await step('issue_comment', issueComment('OWNER'), { 'allowed-actors': 'alice, $(rm -rf /)' });
    expect(result.code).toBe(1);
    expect(result.error).toContain('Input "allowed-actors"');
    expect(created).toBe(0);
  });
});
