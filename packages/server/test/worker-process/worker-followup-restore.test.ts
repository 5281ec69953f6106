import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { nodeAgentCommand } from '../support/node-agent.js';
import { gitRepo } from '../support/git-repo.js';
import { api, runOf, ended, outputOf, TESTER_KEY } from '../support/server-api.js';
import { writeServerConfig } from '../support/server-config.js';
import { killProcesses, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * A follow-up to a run that ended on a worker: real server and worker processes on
 * loopback. It goes back to the instance holding the run's working directory while that
 * one is there; with it gone, another worker of the id makes the directory again from the
 * run's changes.patch, and the run's output says so.
 */

const TOKEN = 'worker-followup-token-51c0e9a7d2';
const KEY = TESTER_KEY;

/**
 * Execution 1 writes `notes.txt` (and hands back a changes.patch that adds it, as a
 * harness's diff would) and `local-only.txt` (in no patch: only the directory it ran in has
 * it); a later execution prints what it finds of both.
 */
const AGENT = nodeAgentCommand(`
  const fs = require('fs');
  const path = require('path');
  const read = (name) => { try { return fs.readFileSync(name, 'utf8').trim(); } catch { return 'missing'; } };
  if (process.env.AGENT_RUNS_EXECUTION === '1') {
    fs.writeFileSync('notes.txt', 'written on the first worker\\n');
    fs.writeFileSync('local-only.txt', 'here\\n');
    const patch = 'diff --git a/notes.txt b/notes.txt\\nnew file mode 100644\\n--- /dev/null\\n+++ b/notes.txt\\n@@ -0,0 +1 @@\\n+written on the first worker\\n';
    fs.writeFileSync(path.join(process.env.AGENT_RUNS_ARTIFACTS_DIR, 'changes.patch'), patch);
    console.log('wrote notes');
  } else {
    console.log('notes=' + read('notes.txt') + ' local=' + read('local-only.txt'));
  }
`);

/**
 * In environment `proj` (a repository checked out at `repo/`): execution 1 adds a line to
 * `repo/README.md` and hands back the patch that adds it (one that does not apply when the
 * prompt says `bad`); a later execution prints the file.
 */
const ENV_AGENT = nodeAgentCommand(`
  const fs = require('fs');
  const path = require('path');
  let prompt = '';
  process.stdin.on('data', (d) => (prompt += d)).on('end', () => {
    if (process.env.AGENT_RUNS_EXECUTION === '1') {
      fs.appendFileSync('repo/README.md', 'changed on the first worker\\n');
      const context = prompt.includes('bad') ? 'a line the checkout does not hold' : 'hello from the repository';
      const patch = 'diff --git a/repo/README.md b/repo/README.md\\n--- a/repo/README.md\\n+++ b/repo/README.md\\n@@ -1 +1,2 @@\\n ' + context + '\\n+changed on the first worker\\n';
      fs.writeFileSync(path.join(process.env.AGENT_RUNS_ARTIFACTS_DIR, 'changes.patch'), patch);
      console.log('wrote notes');
    } else {
      console.log('notes=' + fs.readFileSync('repo/README.md', 'utf8').trim().split('\\n').join('|'));
    }
  });
`);
const repo = gitRepo({ 'README.md': 'hello from the repository\n' });
const ENVIRONMENTS = { proj: { repos: [{ url: repo, path: 'repo' }] } };

const processes: (ServerProcess | WorkerProcess)[] = [];
afterEach(async () => {
  await killProcesses(processes);
});

async function startServer(): Promise<ServerProcess> {
  const configFile = writeServerConfig({ workers: { pool: { token: { from_env: 'AGENT_RUNS_E2E_WORKER_TOKEN' }, worker_hosts: ['box-1'] } }, environments: ENVIRONMENTS });
  // A lease short enough that a killed worker is taken as gone within the test's bounds, long
  // enough that a live one starved by a loaded machine (CI builds native addons beside it) keeps it.
  const server = await startServerProcess(['--memory', '--api-key', `tester=${KEY}`, '--config', configFile, '--lease', '10s'], {
    ...process.env,
    AGENT_RUNS_E2E_WORKER_TOKEN: TOKEN,
  });
  processes.push(server);
  return server;
}

async function startWorker(server: ServerProcess, instance: string, agent = AGENT): Promise<WorkerProcess> {
  const workDir = mkdtempSync(join(tmpdir(), 'worker-followup-'));
  const root = server.baseURL.replace(/\/api\/v1$/, '');
  const config = writeServerConfig({ environments: ENVIRONMENTS });
  const worker = await startWorkerProcess(
    ['--server', root, '--worker-host', 'box-1', '--instance-id', instance, '--command', agent, '--work-dir', workDir, '--config', config],
    TOKEN,
  );
  processes.push(worker);
  return worker;
}



/** A run on the worker, ended SUCCEEDED, and a follow-up sent to it. */
async function runThenFollowUp(server: ServerProcess, beforeFollowup: (id: string) => Promise<void>, prompt = 'write the notes', environment?: string): Promise<string> {
  const config = { worker_host: 'box-1', ...(environment ? { environment_id: environment } : {}) };
  const created = await api(server, '/agent/run', { method: 'POST', body: { prompt, config } });
  expect(created.status).toBe(200);
  const id = created.body.run_id as string;
  const first = await eventually(() => runOf(server, id), (run) => run.state !== 'QUEUED' && run.state !== 'INPROGRESS', 10_000);
  expect(first.state, JSON.stringify(first.status_message)).toBe('SUCCEEDED');
  expect(await outputOf(server, id)).toContain('wrote notes');
  await beforeFollowup(id);
  const sent = await api(server, `/agent/runs/${id}/followups`, { method: 'POST', body: { message: 'read the notes' } });
  expect(sent.status).toBeLessThan(300);
  await eventually(() => outputOf(server, id), (output) => output.includes('notes='), 30_000);
  await eventually(() => runOf(server, id), (run) => run.state === 'SUCCEEDED', 10_000);
  return id;
}

describe('a follow-up to a run that ended on a worker', () => {
  it('goes to the instance that ran it while it is connected, though another polled after it: the same working directory, nothing restored', async () => {
    const server = await startServer();
    const workers = [await startWorker(server, 'first-a'), await startWorker(server, 'second-b')];
    const took = (w: WorkerProcess, id: string, execution: number) => w.stderr().includes(`Run ${id}: taken (execution ${execution})`);
    let holder: WorkerProcess | undefined;
    const id = await runThenFollowUp(server, async (runId) => {
      holder = workers.find((w) => took(w, runId, 1));
      // The holder polls again after its run ended, so the other one is woken first by the follow-up.
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect(holder).toBeDefined();
    expect(took(holder!, id, 2)).toBe(true);
    expect(workers.filter((w) => took(w, id, 2))).toHaveLength(1);
    const output = await outputOf(server, id);
    expect(output).toContain('notes=written on the first worker local=here');
    expect(output).not.toContain('was restored');
  }, 60_000);

  it('after the worker died, resumes on another with the patch applied, and says it restored the working directory', async () => {
    const server = await startServer();
    const first = await startWorker(server, 'first-a');
    const id = await runThenFollowUp(server, async () => {
      first.child.kill('SIGKILL');
      await first.exited;
      await startWorker(server, 'second-b');
    });
    const output = await outputOf(server, id);
    // The patched file is there; what was in no patch is not (another machine's directory).
    expect(output).toContain('notes=written on the first worker local=missing');
    expect(output).toContain('The working directory was restored on worker second-b');
    expect(output).toContain('box-1/first-a');
    expect(output).toContain("the run's changes.patch applied (1 of 1)");
  }, 60_000);

  for (const [name, prompt, readme, said] of [
    ['applies', 'write the notes', 'hello from the repository|changed on the first worker', "the run's changes.patch applied (1 of 1)"],
    ['does not apply', 'write a bad patch', 'hello from the repository', 'patch 1 did not apply'],
  ] as const) {
    it(`restores the environment's checkout on another worker, then the patch when it ${name} (the execution runs either way)`, async () => {
      const server = await startServer();
      const first = await startWorker(server, 'first-a', ENV_AGENT);
      const id = await runThenFollowUp(
        server,
        async () => {
          first.child.kill('SIGKILL');
          await first.exited;
          await startWorker(server, 'second-b', ENV_AGENT);
        },
        prompt,
        'proj',
      );
      const output = await outputOf(server, id);
      expect(output).toContain(`notes=${readme}\\n`);
      expect(output).toContain('the checkout of environment proj');
      expect(output).toContain(said);
    }, 60_000);
  }
});
