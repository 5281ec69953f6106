import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudEnvironmentSchema } from '@agent-runs/core';
import { gitRepo } from './support/git-repo.js';
import { tempTree, writeServerConfig } from './support/server-config.js';
import { nodeAgentCommand } from './support/node-agent.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const repo = gitRepo({ 'README.md': 'hello from the repository\n', 'src/app.js': 'console.log(1)\n' });
const workRoot = tempTree({}, 'agent-runs-env-work-');
// The agent reports what it finds in its working directory.
const agent = `
  const fs = require('node:fs');
  fs.writeFileSync('report.json', JSON.stringify({
    readme: fs.existsSync('${basename(repo)}/README.md') ? fs.readFileSync('${basename(repo)}/README.md', 'utf8') : null,
    checkout: fs.existsSync('checkout/src/app.js'),
    setup: fs.existsSync('setup.txt') ? fs.readFileSync('setup.txt', 'utf8') : null,
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
      },
    }),
  });
});
afterAll(async () => {
  await t.close();
  rmSync(workRoot, { recursive: true, force: true });
});

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
    expect(envs.map((e: { uid: string }) => e.uid)).toEqual(['broken', 'file-url', 'web']);
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
    expect(res.body.detail).toBe('config.environment_id: "staging" names no environment of this server; declared: web, file-url, broken.');
    expect((await t.raw('/api/v1/agent/environments?sort_by=size')).body.detail).toMatch(/^sort_by: must be one of name, last_updated/);
  });
});
