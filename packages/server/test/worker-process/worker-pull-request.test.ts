import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EDITING_AGENT } from '../support/editing-agent.js';
import { eventually } from '../support/eventually.js';
import { bareRemote, git } from '../support/git-remote.js';
import { scriptedGithub } from '../support/scripted-github.js';
import { api, outputOf, runOf, TESTER_KEY } from '../support/server-api.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { killProcesses, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * A run on a self-hosted worker whose environment takes pull requests: the worker (its own
 * configuration, no push credential) runs the agent in its checkout and hands back the
 * changes.patch; the server, which holds the credential, pushes and opens the pull request.
 * Real server and worker processes on loopback, a real remote, a scripted GitHub API.
 */

const WORKER_TOKEN = 'worker-pr-token-7c1f0a9e55';
const PUSH_TOKEN = 'ghp_serverOnlyPushToken0123456789';

let github: Awaited<ReturnType<typeof scriptedGithub>>;
beforeAll(async () => {
  github = await scriptedGithub(PUSH_TOKEN, { status: 201, number: 7 });
});
afterAll(() => github?.close());

const processes: (ServerProcess | WorkerProcess)[] = [];
afterEach(async () => {
  await killProcesses(processes);
});

describe('a worker run whose environment takes pull requests', () => {
  it('ends with the pull request the server opened from the worker\'s changes; the worker never had the credential', async () => {
    const remote = bareRemote();
    const dir = tempTree({}, 'agent-runs-worker-pr-');
    writeFileSync(join(dir, 'push.token'), PUSH_TOKEN, { mode: 0o600 });
    const serverConfig = writeServerConfig(
      {
        workers: { pool: { token: { from_env: 'AGENT_RUNS_E2E_WORKER_TOKEN' }, worker_hosts: ['box-1'] } },
        secrets: { GH_TOKEN: { from_file: join(dir, 'push.token') } },
        environments: { web: { repos: [{ url: remote, path: 'web', pull_requests: { mode: 'draft', credential: 'GH_TOKEN', api_url: github.url } }] } },
      },
      dir,
    );
    const server = await startServerProcess(['--memory', '--api-key', `tester=${TESTER_KEY}`, '--config', serverConfig], { ...process.env, AGENT_RUNS_E2E_WORKER_TOKEN: WORKER_TOKEN });
    processes.push(server);
    // The worker's own configuration: the same environment, no secrets at all.
    const workerConfig = writeServerConfig({ environments: { web: { repos: [{ url: remote, path: 'web' }] } } });
    const worker = await startWorkerProcess(
      ['--server', server.baseURL.replace(/\/api\/v1$/, ''), '--worker-host', 'box-1', '--command', EDITING_AGENT, '--work-dir', mkdtempSync(join(tmpdir(), 'worker-pr-')), '--config', workerConfig],
      WORKER_TOKEN,
    );
    processes.push(worker);

    const created = await api(server, '/agent/run', { method: 'POST', body: { prompt: 'write from the worker', config: { worker_host: 'box-1', environment_id: 'web' } } });
    expect(created.status).toBe(200);
    const id = created.body.run_id as string;
    const run = await eventually(() => runOf(server, id), (r) => r.state !== 'QUEUED' && r.state !== 'INPROGRESS', 20_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(run.status_message.message).toContain('Pull request opened: https://github.com/acme/web/pull/7');
    expect(run.artifacts.filter((a: { artifact_type: string }) => a.artifact_type === 'PULL_REQUEST').map((a: { data: unknown }) => a.data)).toEqual([
      expect.objectContaining({ url: 'https://github.com/acme/web/pull/7', branch: `agent-runs/${id}` }),
    ]);
    expect(git(remote, 'show', `agent-runs/${id}:notes.txt`)).toBe('from the worker\n');
    expect(github.seen[0]).toMatchObject({ path: '/repos/acme/web/pulls', authorization: `token ${PUSH_TOKEN}`, body: { draft: true, head: `agent-runs/${id}` } });
    // The agent ran on the worker and saw no push credential.
    const output = await outputOf(server, id);
    expect(output).toContain('AGENT_RUNS_RUN_ID');
    expect(output + worker.stderr()).not.toContain(PUSH_TOKEN);
  }, 60_000);
});
