import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverInputs, startActionServer } from '../../packages/action/test/support/action-server.js';
import { runStep } from '../../packages/action/test/support/runner.js';
import { EDITING_AGENT } from '../../packages/server/test/support/editing-agent.js';
import { bareRemote, runBranches } from '../../packages/server/test/support/git-remote.js';
import { scriptedGithub } from '../../packages/server/test/support/scripted-github.js';
import { tempTree, writeServerConfig } from '../../packages/server/test/support/server-config.js';

/**
 * The bundled Action, as the runner runs it, against a real server whose environment takes
 * pull requests: the step's outputs and job summary carry the pull request the server opened.
 */

const TOKEN = 'ghp_actionPushToken0123456789abcd';
const remote = bareRemote();
const workRoot = tempTree({}, 'agent-runs-action-pr-');

let github: Awaited<ReturnType<typeof scriptedGithub>>;
let env: Awaited<ReturnType<typeof startActionServer>>;
beforeAll(async () => {
  github = await scriptedGithub(TOKEN, { status: 201, number: 31 });
  const dir = tempTree({ 'push.token': TOKEN });
  env = await startActionServer({
    executor: 'command',
    command: EDITING_AGENT,
    workDir: workRoot,
    configFile: writeServerConfig({
      secrets: { GH_TOKEN: { from_file: join(dir, 'push.token') } },
      environments: { web: { repos: [{ url: remote, path: 'web', pull_requests: { mode: 'off', credential: 'GH_TOKEN', api_url: github.url } }] } },
    }),
  });
});
afterAll(async () => {
  await env?.close();
  await github?.close();
  rmSync(workRoot, { recursive: true, force: true });
});

describe('the Action and the pull request its run opens', () => {
  it('asks for one with pull-request: ready; pr-url and pr-branch are the server\'s, and the summary links it', async () => {
    const step = await runStep({ inputs: serverInputs(env.server, { prompt: 'write from the action', environment: 'web', 'pull-request': 'ready' }) });
    expect(step.code, step.error ?? step.stdout).toBe(0);
    const runId = step.outputs['run-id']!;
    expect(step.outputs['pr-url']).toBe('https://github.com/acme/web/pull/31');
    expect(step.outputs['pr-branch']).toBe(`agent-runs/${runId}`);
    expect(runBranches(remote)).toBe(`agent-runs/${runId}`);
    expect(step.summary).toContain('https://github.com/acme/web/pull/31');
    expect(github.seen[0]).toMatchObject({ body: { draft: false } });
    expect(step.stdout + step.summary).not.toContain(TOKEN);
  }, 60_000);

  it('names a pull-request value it does not take, and creates nothing', async () => {
    const step = await runStep({ inputs: serverInputs(env.server, { prompt: 'x', environment: 'web', 'pull-request': 'please' }) });
    expect(step.code).toBe(1);
    expect(step.error).toContain('Input "pull-request" must be draft, ready or off, got "please"');
  });
});
