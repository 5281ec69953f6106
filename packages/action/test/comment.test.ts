import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActionServer } from './support/action-server.js';
import { startRecorder } from './support/loopback-recorder.js';
import { runStep } from './support/runner.js';

// GitHub's API is out of reach here: GITHUB_API_URL points the action's Octokit at a loopback recorder.
let env: Awaited<ReturnType<typeof startActionServer>>;
let github: Awaited<ReturnType<typeof startRecorder>>;
let refuse = false;
beforeAll(async () => {
  env = await startActionServer();
  github = await startRecorder(() =>
    refuse
      ? { status: 403, body: { message: 'Resource not accessible by integration' } }
      : { status: 201, body: { id: 1, html_url: 'https://github.com/acme/web/pull/7#issuecomment-1' } },
  );
});
afterAll(async () => {
  await github.close();
  await env.close();
});

function eventFile(payload: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'event-'));
  writeFileSync(join(dir, 'event.json'), JSON.stringify(payload));
  return join(dir, 'event.json');
}

const step = (payload: unknown) =>
  runStep({
    inputs: {
      prompt: 'Review [simulate 100ms]',
      'api-key': env.server.apiKey,
      'base-url': env.server.baseURL,
      'poll-interval': '100ms',
      comment: 'true',
      'github-token': 'ghs_token_for_test',
    },
    env: {
      GITHUB_REPOSITORY: 'acme/web',
      GITHUB_WORKFLOW: 'Review',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventFile(payload),
      GITHUB_API_URL: github.url,
    },
  });

describe('comment on the pull request', () => {
  it('posts the outcome as a table on the pull request that triggered the workflow', async () => {
    const result = await step({ pull_request: { number: 7, author_association: 'MEMBER' } });
    expect(result.code).toBe(0);
    const posted = github.requests.at(-1)!;
    expect(posted.method).toBe('POST');
    expect(posted.url).toBe('/repos/acme/web/issues/7/comments');
    expect(posted.headers.authorization).toBe('token ghs_token_for_test');
    const body = JSON.parse(posted.body).body as string;
    expect(body).toContain('<!-- agent-runs-action -->');
    expect(body).toContain(`| Run | ${result.outputs['run-id']} |`);
    expect(body).toContain('| State | SUCCEEDED |');
    expect(result.stdout).toContain('Commented on pull request #7: https://github.com/acme/web/pull/7#issuecomment-1');
  });

  it('posts nothing when no pull request triggered the workflow', async () => {
    const before = github.requests.length;
    const result = await step({ ref: 'refs/heads/main' });
    expect(result.code).toBe(0);
    expect(github.requests.length).toBe(before);
    expect(result.stdout).toContain('Not commenting: this workflow was not triggered by a pull request.');
  });

  it('only warns when GitHub refuses the comment', async () => {
    refuse = true;
    try {
      const result = await step({ pull_request: { number: 7, author_association: 'MEMBER' } });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/::warning::Could not comment on pull request #7 \(403\).*pull-requests: write/);
    } finally {
      refuse = false;
    }
  });
});
