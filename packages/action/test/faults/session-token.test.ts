import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentRunsClient } from '@agent-runs/core';
import type { RunningServer } from '@agent-runs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../support/loopback-recorder.js';
import { runStep, workflowCommands, type StepResult } from '../support/runner.js';
import { lastWordsCommand, startCommandAgentServer } from '../../../../test/support/command-agent.js';

// The agent's last words (the status message) refer to issues, here and in another repository.
const LAST_WORDS = 'Fixed #1, see acme/web#2 and GH-3; issue #x stays text';

const dir = mkdtempSync(join(tmpdir(), 'session-token-event-'));

let server: RunningServer;
let client: AgentRunsClient;
let github: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
  server = await startCommandAgentServer(lastWordsCommand(LAST_WORDS, 'exit 1'));
  client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 });
  github = await startRecorder(() => ({ status: 201, body: { id: 1, html_url: 'https://github.com/acme/web/pull/7#issuecomment-1' } }));
});
afterAll(async () => {
  await github.close();
  await client.close();
  await server.close();
});

function step(inputs: Record<string, string> = {}): Promise<StepResult> {
  const event = join(dir, 'event.json');
  writeFileSync(event, JSON.stringify({ pull_request: { number: 7, author_association: 'MEMBER' } }));
  return runStep({
    inputs: {
      prompt: 'Do the work',
      'api-key': server.apiKey,
      'base-url': server.baseURL,
      'poll-interval': '100ms',
      comment: 'true',
      'github-token': 'ghs_token_for_test',
      // The run fails, so that the agent's last words are its status message; the step need not.
      'fail-on': 'none',
      ...inputs,
    },
    env: { GITHUB_REPOSITORY: 'acme/web', GITHUB_WORKFLOW: 'Review', GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event, GITHUB_API_URL: github.url },
  });
}

/** The run's session link as the API gives it to its owner, and the token in it. */
async function ownersLink(runId: string): Promise<{ link: string; token: string }> {
  const link = (await client.runs.get(runId)).session_link!;
  return { link, token: new URL(link).searchParams.get('token')! };
}

/** The log as the runner shows it: add-mask lines are consumed, not printed. */
const shownLog = (stdout: string) => stdout.replace(/^::add-mask::.*$/gm, '');

describe('the session link', () => {
  it('is masked, and published without its token in the log, outputs, job summary and comment', async () => {
    // The reproduction: the step printed session_link (a bearer credential to the prompt and output) everywhere.
    const result = await step();
    expect(result.code).toBe(0);
    const { link, token } = await ownersLink(result.outputs['run-id']!);
    expect(token.length).toBeGreaterThan(20);
    const masks = workflowCommands(result.stdout).filter((c) => c.command === 'add-mask').map((c) => c.data);
    expect(masks).toContain(token);
    const comment = JSON.parse(github.requests.at(-1)!.body).body as string;
    const published = [shownLog(result.stdout), result.summary, comment, ...Object.values(result.outputs)];
    for (const text of published) {
      expect(text).not.toContain(token);
      expect(text).not.toContain('token=');
    }
    const bare = link.replace(/\?token=[^&#]*/, '');
    expect(result.outputs['session-link']).toBe(bare);
    expect(shownLog(result.stdout)).toContain(`Session: ${bare}`);
    expect(result.summary).toContain(`<a href="${bare}">`);
    expect(comment).toContain(bare);
  });

  it('is logged without its token when the step does not wait', async () => {
    const result = await step({ wait: 'false', comment: 'false' });
    expect(result.code).toBe(0);
    const { token } = await ownersLink(result.outputs['run-id']!);
    expect(result.stdout).toContain(`::add-mask::${token}`);
    expect(shownLog(result.stdout)).not.toContain(token);
  });
});

describe('issue references in run text', () => {
  it('are shown, not linked, in the comment and the job summary', async () => {
    const result = await step();
    expect(result.code).toBe(0);
    const comment = JSON.parse(github.requests.at(-1)!.body).body as string;
    for (const text of [comment, result.summary]) {
      expect(text).toContain('Fixed #&#8203;1, see acme/web#&#8203;2 and GH-&#8203;3; issue #x stays text');
      expect(text).not.toMatch(/(?<!&)#\d|GH-\d/);
    }
  });
});
