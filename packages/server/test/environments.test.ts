import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudEnvironmentSchema } from '@agent-runs/core';
import { gitRepo } from './support/git-repo.js';
import { tempTree, writeServerConfig } from './support/server-config.js';
import { nodeAgentCommand } from './support/node-agent.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';
import { eventually } from './support/eventually.js';

const repo = gitRepo({ 'README.md': 'hello from the repository\n', 'src/app.js': 'console.log(1)\n' });
// Repositories whose setup succeeds only once a `ready` file is committed to them.
const failing = gitRepo({ 'README.md': 'not ready yet\n' });
const slow = gitRepo({ 'README.md': 'not ready yet\n' });
const workRoot = tempTree({}, 'agent-runs-env-work-');
// The agent reports what it finds in its working directory.
const agent = `
  const fs = require('node:fs');
  fs.writeFileSync('report.json', JSON.stringify({
    readme: fs.existsSync('${basename(repo)}/README.md') ? fs.readFileSync('${basename(repo)}/README.md', 'utf8') : null,
    checkout: fs.existsSync('checkout/src/app.js'),
    setup: fs.existsSync('setup.txt') ? fs.readFileSync('setup.txt', 'utf8') : null,
    ready: fs.existsSync('failing/ready') || fs.existsSync('slow/ready'),
  }));`;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    executor: 'command',
    command: nodeAgentCommand(agent),
    workDir: workRoot,
    configFile: writeServerConfig({
      environments: {
        web: {
          name: 'Web app',
          description: 'The web front end',
          repos: [{ url: repo }],
          setup_commands: ['echo prepared > setup.txt', 'echo setup-says-hi'],
        },
        'file-url': { repos: [{ url: `file://${repo}`, path: 'checkout' }] },
        broken: { setup_commands: ['echo step one', 'echo it broke >&2; exit 4', 'echo never'] },
        failing: { repos: [{ url: failing, path: 'failing' }], setup_commands: ['test -f failing/ready || { echo not ready; exit 3; }'] },
        slow: { repos: [{ url: slow, path: 'slow' }], setup_commands: ['test -f slow/ready || { echo waiting; sleep 600; }'] },
      },
    }),
  });
});
afterAll(async () => {
  await t.close();
  rmSync(workRoot, { recursive: true, force: true });
});

/** Commits a `ready` file to the repository, so its environment's setup succeeds from now on. */
function makeReady(repo: string): void {
  writeFileSync(join(repo, 'ready'), 'yes\n');
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'add', 'ready'], { cwd: repo, stdio: 'ignore' });
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', 'ready'], { cwd: repo, stdio: 'ignore' });
}

const outputOf = async (runId: string) => ((await t.raw(`/api/v1/agent/runs/${runId}/output`)).body as { chunks: { text: string }[] }).chunks.map((c) => c.text).join('');

const report = (runId: string) => JSON.parse(readFileSync(join(workRoot, runId, 'report.json'), 'utf8'));

describe('environments', () => {
  it('checks out the repository and runs the setup commands before the agent starts', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Look around', config: { environment_id: 'web' } });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    expect(report(run_id)).toMatchObject({ readme: 'hello from the repository\n', setup: 'prepared\n' });
    const page = await (await fetch(run.session_link!)).text();
    expect(page).toContain('setup-says-hi');
  });

  it('answers a follow-up in the directory the first execution prepared, without cloning again', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'First', config: { environment_id: 'web' } });
    expect((await t.client.runs.wait(run_id, { pollInterval: 20 })).state).toBe('SUCCEEDED');
    expect((await t.client.runs.followup(run_id, { message: 'Again' })).state).toBe('QUEUED');
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    expect((await t.client.runs.conversation(run_id)).steps).toHaveLength(2);
    expect(report(run_id)).toMatchObject({ readme: 'hello from the repository\n', setup: 'prepared\n' });
  });

  it('runs the setup again, in an emptied directory, before the agent answers a follow-up to a run whose setup failed', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'First', config: { environment_id: 'failing' } });
    const failed = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(failed.status_message!.message).toBe('Environment "failing" setup failed: `test -f failing/ready || { echo not ready; exit 3; }` exited with code 3.\nLast output:\nnot ready');
    makeReady(failing);
    await t.client.runs.followup(run_id, { message: 'Again' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    // Cloned again over the first clone's place: the agent finds the repository as it is now.
    expect(report(run_id)).toMatchObject({ ready: true });
    expect((await outputOf(run_id)).match(/^\$ git clone /gm)).toHaveLength(2);
  });

  it('runs the setup again before the agent answers a follow-up to a run cancelled during its setup', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'First', config: { environment_id: 'slow' } });
    await eventually(() => outputOf(run_id), (text) => text.includes('waiting'), 60_000);
    await t.client.runs.cancel(run_id);
    expect((await t.client.runs.wait(run_id, { pollInterval: 20 })).state).toBe('CANCELLED');
    makeReady(slow);
    await t.client.runs.followup(run_id, { message: 'Again' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(report(run_id)).toMatchObject({ ready: true });
  }, 90_000);

  it('clones a file:// URL into the path the configuration names', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Look around', config: { environment_id: 'file-url' } });
    expect((await t.client.runs.wait(run_id, { pollInterval: 20 })).state).toBe('SUCCEEDED');
    expect(report(run_id)).toMatchObject({ checkout: true, readme: null, setup: null });
  });

  it('fails the run, naming the setup command and its last output, when a setup command fails', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Never starts', config: { environment_id: 'broken' } });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('FAILED');
    expect(run.status_message).toMatchObject({ error_code: 'environment_setup_failed', retryable: false });
    expect(run.status_message!.message).toBe(
      'Environment "broken" setup failed: `echo it broke >&2; exit 4` exited with code 4.\nLast output:\nit broke',
    );
    expect(existsSync(join(workRoot, run_id, 'report.json'))).toBe(false);
  });

  it('lists the declared environments with when a run last started in each', async () => {
    const res = await t.raw('/api/v1/agent/environments');
    expect(res.status).toBe(200);
    const envs = res.body.environments.map((e: unknown) => CloudEnvironmentSchema.parse(e));
    expect(envs.map((e: { uid: string }) => e.uid)).toEqual(['broken', 'failing', 'file-url', 'slow', 'web']);
    const web = envs.find((e: { uid: string }) => e.uid === 'web');
    expect(web.config).toEqual({
      name: 'Web app',
      description: 'The web front end',
      github_repos: [{ owner: basename(join(repo, '..')), repo: basename(repo) }],
      setup_commands: ['echo prepared > setup.txt', 'echo setup-says-hi'],
    });
    const { runs } = await t.client.runs.list({ environment_id: 'web', limit: 1, sort_by: 'created_at' });
    expect(web.last_task_run_timestamp).toBe(runs[0]!.created_at);
    expect(web.last_task_created).toMatchObject({ id: runs[0]!.run_id, state: 'SUCCEEDED' });
  });

  it('refuses an environment_id that names no declared environment, listing those that exist', async () => {
    const res = await t.raw('/api/v1/agent/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x', config: { environment_id: 'staging' } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('config.environment_id: "staging" names no environment of this server; declared: web, file-url, broken, failing, slow.');
    expect((await t.raw('/api/v1/agent/environments?sort_by=size')).body.detail).toMatch(/^sort_by: must be one of name, last_updated/);
  });
});
