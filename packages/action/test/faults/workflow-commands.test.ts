import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '@agent-runs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../support/loopback-recorder.js';
import { runStep, workflowCommands, type StepResult } from '../support/runner.js';
import { lastWordsCommand, startCommandAgentServer } from '../../../../test/support/command-agent.js';

// An agent whose last words (the run's status message) try to drive the runner and the pull request.
const HOSTILE =
  'working\n' +
  '::error title=Injected::the build is broken\n' +
  '  ::add-mask::SUCCEEDED\n' +
  'see ##[warning]old-style command\n' +
  '\u001b]0;window title\u0007\u001b[2J\u001b]8;;http://evil.example\u001b\\click\u001b]8;;\u001b\\\r\n' +
  '@everyone @acme/admins <img src=x onerror=alert(1)> [link](http://evil.example) **bold** | cell\n';

const dir = mkdtempSync(join(tmpdir(), 'hostile-event-'));

let server: RunningServer;
let github: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
  server = await startCommandAgentServer(lastWordsCommand(HOSTILE, 'exit 3'));
  github = await startRecorder(() => ({ status: 201, body: { id: 1, html_url: 'https://github.com/acme/web/pull/7#issuecomment-1' } }));
});
afterAll(async () => {
  await github.close();
  await server.close();
});

function step(inputs: Record<string, string>): Promise<StepResult> {
  const event = join(dir, 'event.json');
  writeFileSync(event, JSON.stringify({ pull_request: { number: 7, author_association: 'MEMBER' } }));
  return runStep({
    inputs: {
      prompt: 'Do the work',
      title: 'Review @everyone <b>now</b>',
      'api-key': server.apiKey,
      'base-url': server.baseURL,
      'poll-interval': '100ms',
      ...inputs,
    },
    env: {
      GITHUB_REPOSITORY: 'acme/web',
      GITHUB_WORKFLOW: 'Review',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_API_URL: github.url,
    },
  });
}

/** The token of the run's session link, which the action masks. */
async function sessionToken(result: StepResult): Promise<string> {
  const res = await fetch(`${server.baseURL}/agent/runs/${result.outputs['run-id']}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
  return new URL(((await res.json()) as { session_link: string }).session_link).searchParams.get('token')!;
}

/** Every command the runner would act on is one the action itself means to send. */
function expectOnlyTheActionsOwnCommands(result: StepResult, secrets: string[]): void {
  for (const command of workflowCommands(result.stdout)) {
    switch (command.command) {
      case 'stop-commands':
      case 'debug':
      // The action's own group around the agent's output (the output itself sits inside stop-commands).
      case 'group':
      case 'endgroup':
        break;
      case 'add-mask':
        expect(secrets).toContain(command.data);
        break;
      case 'error':
        expect(command.properties, command.line).toBe('');
        break;
      default:
        throw new Error(`the runner would act on: ${command.line}`);
    }
  }
}

describe('run text in the workflow log', () => {
  it('logs a hostile status message as one visible line that starts no workflow command', async () => {
    const result = await step({ 'fail-on': 'none', comment: 'true', 'github-token': 'ghs_token_for_test' });
    expect(result.code).toBe(0);
    expect(result.outputs.state).toBe('FAILED');
    expectOnlyTheActionsOwnCommands(result, [server.apiKey, 'ghs_token_for_test', await sessionToken(result)]);
    // Shown, escaped, on the progress line and the closing headline: nothing hidden, nothing interpreted.
    // The agent's own output is logged inside its group with commands stopped; here, the step's lines.
    const stepLines = result.stdout.replace(/^::group::Agent output\n[\s\S]*?^::endgroup::\n/gm, '');
    expect(result.stdout).toMatch(/^::group::Agent output\n::stop-commands::[0-9a-f]{32}\n/m);
    const shown = stepLines.split('\n').filter((line) => line.includes('::error title=Injected::the build is broken'));
    expect(shown.length).toBeGreaterThanOrEqual(2);
    for (const line of shown) {
      expect(line).toMatch(/^(\[\d[\dhms]*\] FAILED - |Run \S+ failed: )The agent command exited with code 3: working\\n::error/);
      expect(line).toContain('\\n  ::add-mask::SUCCEEDED\\nsee ##[warning]old-style command\\n\\e]0;window title\\x07\\e[2J');
    }
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).not.toContain('\r');
  });

  it('fails the step with the status message in the error annotation and nothing else acted on', async () => {
    const result = await step({});
    expect(result.code).toBe(1);
    expectOnlyTheActionsOwnCommands(result, [server.apiKey, await sessionToken(result)]);
    const errors = workflowCommands(result.stdout).filter((c) => c.command === 'error');
    expect(errors).toHaveLength(1);
    expect(result.error).toMatch(/^Run \S+ failed: The agent command exited with code 3: working\\n::error title=Injected::/);
  });
});

describe('run text in the job summary and the pull-request comment', () => {
  it('escapes HTML and markdown and notifies nobody', async () => {
    const before = github.requests.length;
    const result = await step({ 'fail-on': 'none', comment: 'true', 'github-token': 'ghs_token_for_test' });
    expect(result.code).toBe(0);
    expect(github.requests.length).toBe(before + 1);
    const comment = JSON.parse(github.requests.at(-1)!.body).body as string;
    for (const text of [comment, result.summary]) {
      expect(text).not.toMatch(/<img|<b>|\[link\]\(|\*\*bold\*\*|@everyone|@acme\/admins|\u001b/);
      expect(text).toContain('@&#8203;everyone @&#8203;acme/admins &lt;img src=x onerror=alert(1)&gt;');
      expect(text).toContain('Review @&#8203;everyone &lt;b&gt;now&lt;/b&gt;');
      expect(text).toContain('&#91;link&#93;(http://evil.example) &#42;&#42;bold&#42;&#42; &#124; cell');
    }
    // The table keeps its shape: one row per field, the status message's lines joined with <br>.
    const status = comment.split('\n').filter((line) => line.startsWith('| Status |'));
    expect(status).toHaveLength(1);
    expect(status[0]).toContain('working<br>::error title=Injected::the build is broken<br>');
  });
});
