import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { processAlive } from '../../../../test/support/process-alive.js';
import { entrypointToken } from '../../src/worker-process/kubernetes/entrypoint-token.js';
import { agentScriptCommand } from '../support/agent-script.js';
import { startChildRunSource } from '../support/child-run-agent.js';
import { eventually } from '../support/eventually.js';
import { expectLeakMasked, leakingAgentSource } from '../support/leaking-agent.js';
import { api, ended, outputOf, runOf } from '../support/server-api.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { killProcesses, type ServerProcess } from '../support/server-process.js';
import { freePort } from '../support/free-port.js';
import { createPoolRun, startPoolServer } from '../support/worker-pool-server.js';
import { JOB_ENTRYPOINT, startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * `agent-runs-worker --backend command` end to end: a real server process, a real worker
 * process, and the operator's dispatch command a shell script that starts the real
 * `agent-runs-job-entrypoint --stdin` as a detached process (setsid), as a script handing
 * runs to Nomad or another machine would; the entrypoint then runs the agent and reports to
 * the worker under the run's token.
 */

const TOKEN = 'worker-dispatch-token-7d1f0c2e5a';
const SECRET = 'deploy-key-value-4b8e1f0a9c';

/** The agent on the remote side: what AGENT_RUNS_PROMPT says. */
const AGENT_SOURCE = `
const fs = require('fs');
const [mode, arg] = (process.env.AGENT_RUNS_PROMPT || '').trim().split(' ');
if (process.env.AGENT_RUNS_JOB_TOKEN !== undefined || process.env.AGENT_RUNS_JOB_URL !== undefined) { console.log('the token leaked'); process.exit(9); }
fs.writeFileSync(process.env.MARKS + '/agent-' + process.env.AGENT_RUNS_RUN_ID + '.pid', String(process.pid));
if (mode === 'ok') {
  console.log('hello from afar');
  console.log('secret length ' + (process.env.DEPLOY_KEY || '').length);
  fs.writeFileSync(process.env.AGENT_RUNS_USAGE_FILE, JSON.stringify({ total_tokens: 7 }));
  fs.writeFileSync(process.env.AGENT_RUNS_ARTIFACTS_DIR + '/notes.txt', 'made afar\\n');
} else if (mode === 'fail') {
  console.log('about to fail');
  process.exitCode = 4;
} else if (mode === 'quiet') {
  // Prints nothing: only the entrypoint's heartbeat tells it of a cancel.
  setInterval(() => {}, 1000);
} else if (mode === 'child') {
  // The run's API token, from the stdin JSON: a child run started with it.
${startChildRunSource()}} else if (mode === 'sleep') {
  setTimeout(() => console.log('slept'), Number(arg));
} else if (mode === 'leak') {
  // Its secret printed once, then again (plainly and base64) once the test's go file is there, and named in its result.
${leakingAgentSource('arg')}}
`;

function script(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

interface Setup {
  server: ServerProcess;
  /** Where the scripts and the agent leave what the test reads. */
  dir: string;
  /** `secret`: DEPLOY_KEY's value in the worker's configuration (SECRET unless rotated). */
  startWorker(args?: string[], secret?: string): Promise<WorkerProcess>;
  createRun(prompt: string): Promise<string>;
}

/** What the dispatch script does: starts the entrypoint with setsid, has it detach itself (--detach), fails, hangs, or starts nothing. */
type Dispatch = 'detached' | 'self-detaching' | 'failing' | 'hanging' | 'nothing';

/** The detached entrypoints (and their agents) a dispatch script started in `dir`: each leads a session (and group) of its own. */
function killEntrypoints(dir: string): void {
  const file = join(dir, 'entrypoints');
  if (!existsSync(file)) return;
  for (const pid of readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
}

/** A test's server, worker and dispatched entrypoints, which it ends with that test (the tests run concurrently: each tears down only its own). */
async function setUp({ expect, onTestFinished }: TestContext, dispatch: Dispatch = 'detached'): Promise<Setup> {
  const processes: (ServerProcess | WorkerProcess)[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'worker-dispatch-'));
  onTestFinished(async () => {
    await killProcesses(processes);
    killEntrypoints(dir);
  });
  // A 30 s lease: the restart tests start a worker again well after the first renewed, on a machine busy with this file's other tests (15 s ran out once).
  const server = await startPoolServer(processes, { token: TOKEN, workerHost: 'remote', sections: { environments: { vault: {} } }, args: ['--lease', '30s'] });
  const agent = agentScriptCommand(dir, AGENT_SOURCE);
  const dispatcher =
    dispatch === 'detached'
      ? script(
          dir,
          'dispatch.sh',
          [
            // What this process was given besides stdin, for the test to look at.
            `tr '\\0' ' ' < /proc/$$/cmdline >> ${dir}/dispatch-cmdline`,
            `tr '\\0' '\\n' < /proc/$$/environ >> ${dir}/dispatch-environ`,
            // The run goes on to the entrypoint through stdin, in a session of its own that outlives this script.
            'exec 3<&0',
            `MARKS=${dir} setsid ${JSON.stringify(process.execPath)} ${JSON.stringify(JOB_ENTRYPOINT)} --stdin <&3 >>${dir}/entrypoint.log 2>&1 &`,
            `echo $! >> ${dir}/entrypoints`,
            'exit 0',
          ].join('\n'),
        )
      : dispatch === 'self-detaching'
        ? // As over ssh: the entrypoint reads the run, detaches itself and returns at once.
          script(dir, 'dispatch.sh', `MARKS=${dir} exec ${JSON.stringify(process.execPath)} ${JSON.stringify(JOB_ENTRYPOINT)} --stdin --detach --log ${dir}/entrypoint.log`)
        : dispatch === 'failing'
          ? script(dir, 'dispatch.sh', ['cat > /dev/null', 'echo "starting the job" >&2', "printf 'no capacity in region eu-west \\033[31mred\\033[0m\\n' >&2", 'exit 7'].join('\n'))
          : dispatch === 'hanging'
            ? script(dir, 'dispatch.sh', ['echo "waiting for a slot" >&2', 'sleep 60'].join('\n'))
            : script(dir, 'dispatch.sh', 'cat > /dev/null');
  const canceller = script(dir, 'cancel.sh', `echo "$1" >> ${dir}/cancelled`);
  const workerConfig = writeServerConfig({ secrets: { DEPLOY_KEY: { from_env: 'DISPATCH_TEST_DEPLOY_KEY' } }, environments: { vault: { secrets: ['DEPLOY_KEY'] } } }, tempTree());
  // One port and one work directory for the worker and the one restarted after it: the entrypoints keep reporting to it.
  const jobPort = await freePort();
  const workDir = mkdtempSync(join(tmpdir(), 'worker-dispatch-work-'));
  const root = server.baseURL.replace(/\/api\/v1$/, '');
  return {
    server,
    dir,
    async startWorker(args = [], secret = SECRET) {
      const worker = await startWorkerProcess(
        [
          '--server', root,
          '--worker-host', 'remote',
          '--backend', 'command',
          '--dispatch-command', dispatcher,
          '--cancel-command', canceller,
          '--config', workerConfig,
          '--command', agent,
          '--job-listen', `127.0.0.1:${jobPort}`,
          '--work-dir', workDir,
          '--instance-id', 'dispatcher-0',
          '--concurrency', '4',
          ...args,
        ],
        TOKEN,
        { ...process.env, DISPATCH_TEST_DEPLOY_KEY: secret },
      );
      processes.push(worker);
      return worker;
    },
    createRun: (prompt) => createPoolRun(expect, server, 'remote', prompt, { environment_id: 'vault' }),
  };
}

// Each test starts its own server, worker and entrypoints, and waits on them far more than it computes: they run side by side
// (vitest's maxConcurrency at a time), their waits bounded for a machine that is busy with a neighbour too.
describe.concurrent('agent-runs-worker --backend command, with a dispatch script that starts the entrypoint detached', () => {
  it('runs a dispatched run: SUCCEEDED with its output and usage, the secret given to the agent, never to the script', async (context) => {
    const { expect } = context;
    const { server, dir, startWorker, createRun } = await setUp(context);
    await startWorker();
    const id = await createRun('ok');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const output = await outputOf(server, id);
    expect(output).toContain('hello from afar');
    expect(output).toContain(`secret length ${SECRET.length}`);
    expect(output).not.toContain('the token leaked');
    expect(run.request_usage).toMatchObject({ total_tokens: 7 });
    // The file the agent left in its artifacts directory came back with the end.
    expect(run.artifacts).toEqual([expect.objectContaining({ artifact_type: 'FILE', data: expect.objectContaining({ filepath: 'notes.txt', size_bytes: 10 }) })]);
    // The script's argv and environment hold neither the secret, nor the run's token, nor the worker's.
    const token = entrypointToken(TOKEN, id, (await runOf(server, id)).started_at as string);
    const cmdline = readFileSync(join(dir, 'dispatch-cmdline'), 'utf8');
    const environ = readFileSync(join(dir, 'dispatch-environ'), 'utf8');
    expect(cmdline).toContain('dispatch.sh');
    expect(environ).toContain('PATH=');
    for (const hidden of [SECRET, token, TOKEN]) {
      expect(cmdline).not.toContain(hidden);
      expect(environ).not.toContain(hidden);
    }
    // Nor was the entrypoint given them in its argv: it read them from stdin.
    expect(readFileSync(join(dir, 'entrypoints'), 'utf8').trim()).toMatch(/^\d+$/);
  }, 60_000);

  it("gives the agent its run's API token from the stdin JSON only: it starts a child run with it, masked in the output", async (context) => {
    const { expect } = context;
    const { server, dir, startWorker, createRun } = await setUp(context);
    await startWorker();
    const id = await createRun('child');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const output = await outputOf(server, id);
    const childId = /child 200 (\S+?)\\n/.exec(output)?.[1];
    expect(childId, output).toBeDefined();
    expect((await api(server, `/agent/runs/${childId}`)).body).toMatchObject({ parent_run_id: id });
    expect(output).toContain('token: ***');
    // Not in the dispatch command's argv or environment (the token's prefix is the server's run tokens').
    expect(readFileSync(join(dir, 'dispatch-cmdline'), 'utf8')).not.toContain('art_');
    expect(readFileSync(join(dir, 'dispatch-environ'), 'utf8')).not.toContain('art_');
  }, 60_000);

  it("ends the run FAILED when the agent exits non-zero", async (context) => {
    const { expect } = context;
    const { server, startWorker, createRun } = await setUp(context);
    await startWorker();
    const id = await createRun('fail');
    const run = await ended(server, id, 30_000);
    expect(run.state).toBe('FAILED');
    expect(run.status_message.message).toContain('exited with code 4');
    expect(await outputOf(server, id)).toContain('about to fail');
  }, 60_000);

  it("a dispatch command that exits non-zero ends the run FAILED, naming its exit and its stderr's last lines, escaped", async (context) => {
    const { expect } = context;
    const { server, startWorker, createRun } = await setUp(context, 'failing');
    await startWorker();
    const id = await createRun('ok');
    const run = await ended(server, id, 30_000);
    expect(run.state).toBe('FAILED');
    const message = run.status_message.message as string;
    expect(message).toMatch(/^The dispatch command exited with code 7; its stderr ended with: starting the job \| no capacity in region eu-west \[31mred\[0m\.$/);
    expect(message).not.toContain('\u001b');
  }, 60_000);

  it('runs a run through an entrypoint that detaches itself (--stdin --detach, as over ssh)', async (context) => {
    const { expect } = context;
    const { server, dir, startWorker, createRun } = await setUp(context, 'self-detaching');
    await startWorker();
    const id = await createRun('ok');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(await outputOf(server, id)).toContain('hello from afar');
    // The detached entrypoint mirrors the agent's output to its log.
    expect(readFileSync(join(dir, 'entrypoint.log'), 'utf8')).toContain('hello from afar');
  }, 60_000);

  it('a dispatch command that does not exit within --dispatch-timeout is killed, and the run ends FAILED saying so; one that starts nothing ends FAILED after --silence-timeout, the cancel command run', async (context) => {
    const { expect } = context;
    const hanging = await setUp(context, 'hanging');
    await hanging.startWorker(['--dispatch-timeout', '1s']);
    const slow = await ended(hanging.server, await hanging.createRun('ok'), 30_000);
    expect(slow.state).toBe('FAILED');
    expect(slow.status_message.message).toBe('The dispatch command did not exit within 1 s and was killed; its stderr ended with: waiting for a slot.');
    const nothing = await setUp(context, 'nothing');
    await nothing.startWorker(['--silence-timeout', '2s']);
    const id = await nothing.createRun('ok');
    const silent = await ended(nothing.server, id, 30_000);
    expect(silent.state).toBe('FAILED');
    expect(silent.status_message.message).toMatch(/^Nothing was heard from the dispatched run's entrypoint for 2 s/);
    await eventually(() => existsSync(join(nothing.dir, 'cancelled')) && readFileSync(join(nothing.dir, 'cancelled'), 'utf8'), (text) => text === `${id}\n`);
  }, 90_000);

  it('a cancel stops the detached entrypoint and its quiet agent (at its next heartbeat), and runs the cancel command with the run id', async (context) => {
    const { expect } = context;
    const { server, dir, startWorker, createRun } = await setUp(context);
    await startWorker();
    const id = await createRun('quiet');
    const agentPidFile = join(dir, `agent-${id}.pid`);
    await eventually(() => existsSync(agentPidFile), (there) => there, 30_000);
    const agentPid = Number(readFileSync(agentPidFile, 'utf8'));
    const entrypointPid = Number(readFileSync(join(dir, 'entrypoints'), 'utf8').trim());
    expect(processAlive(agentPid) && processAlive(entrypointPid)).toBe(true);
    // The entrypoint, running: neither its argv nor its environment holds the token or the secret.
    const token = entrypointToken(TOKEN, id, (await runOf(server, id)).started_at as string);
    for (const file of ['cmdline', 'environ']) {
      const text = readFileSync(`/proc/${entrypointPid}/${file}`, 'utf8');
      expect(text).not.toContain(token);
      expect(text).not.toContain(SECRET);
    }
    expect((await api(server, `/agent/runs/${id}/cancel`, { method: 'POST' })).status).toBeLessThan(300);
    expect((await ended(server, id)).state).toBe('CANCELLED');
    await eventually(() => existsSync(join(dir, 'cancelled')) && readFileSync(join(dir, 'cancelled'), 'utf8'), (text) => text === `${id}\n`);
    await eventually(() => [processAlive(agentPid), processAlive(entrypointPid)], (up) => !up[0] && !up[1], 30_000);
    expect(readFileSync(join(dir, 'entrypoint.log'), 'utf8')).not.toContain(token);
  }, 90_000);

  it('a worker killed while runs are dispatched, then restarted, follows them again: each SUCCEEDS with its output, none dispatched twice', async (context) => {
    const { expect } = context;
    const { server, dir, startWorker, createRun } = await setUp(context);
    const first = await startWorker();
    const ids = [await createRun('sleep 4000'), await createRun('sleep 4000')];
    await eventually(() => ids.map((id) => existsSync(join(dir, `agent-${id}.pid`))), (up) => up.every(Boolean), 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startWorker();
    const runs = await Promise.all(ids.map((id) => ended(server, id, 30_000)));
    expect(runs.map((r) => r.state)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    for (const id of ids) expect(await outputOf(server, id)).toContain('slept');
    expect(readFileSync(join(dir, 'entrypoints'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(second.stderr()).toMatch(/followed again after a restart/);
  }, 90_000);

  it('a worker killed (-9) while a run is dispatched, then restarted with the secret rotated: what the agent prints after holds the mask, never the secret it was given', async (context) => {
    const { expect } = context;
    const { server, dir, startWorker, createRun } = await setUp(context);
    const first = await startWorker();
    const go = join(dir, 'go');
    const id = await createRun(`leak ${go}`);
    await eventually(() => outputOf(server, id), (output) => output.includes('before'), 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startWorker([], 'deploy-key-rotated-0e6b2d9f57');
    await eventually(() => second.stderr(), (stderr) => /followed again after a restart/.test(stderr), 30_000);
    writeFileSync(go, '');
    await expectLeakMasked(expect, server, id, SECRET);
  }, 90_000);

  it("a worker killed (-9) while a run with a duration cap is dispatched, then restarted past the cap: the run ends BLOCKED at the cap counted from its start, its agent stopped", async (context) => {
    const { expect } = context;
    const { server, dir, startWorker } = await setUp(context);
    const first = await startWorker();
    const created = await api(server, '/agent/run', { method: 'POST', body: { prompt: 'sleep 600000', config: { worker_host: 'remote', budget: { max_duration_seconds: 6 } } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.run_id as string;
    const agentPidFile = join(dir, `agent-${id}.pid`);
    await eventually(() => existsSync(agentPidFile), (there) => there, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const running = await runOf(server, id);
    expect(running.state, 'the first worker stopped it before it was killed').toBe('INPROGRESS');
    // Nobody holds it to its cap meanwhile: the restarted worker finds it past the cap (9 s after its start, of 6).
    const startedAt = Date.parse(running.started_at as string);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + 9_000 - Date.now())));
    const agentPid = Number(readFileSync(agentPidFile, 'utf8'));
    expect(processAlive(agentPid)).toBe(true);

    const second = await startWorker();
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('BLOCKED');
    expect(second.stderr()).toMatch(/followed again after a restart/);
    expect(run.status_message.error_code).toBe('budget_exceeded');
    const [, seconds] = /^stopped at the budget: (\d+) s run of max_duration_seconds 6\. /.exec(run.status_message.message) ?? [];
    // Counted from the execution's start, not from the restart (which would say 6 s).
    expect(Number(seconds), run.status_message.message).toBeGreaterThanOrEqual(9);
    await eventually(() => existsSync(join(dir, 'cancelled')) && readFileSync(join(dir, 'cancelled'), 'utf8'), (text) => text === `${id}\n`);
    await eventually(() => processAlive(agentPid), (up) => !up, 30_000);
  }, 90_000);
});

// spawnSync holds the test process's event loop, which its concurrent neighbours' polls need: on its own.
describe('agent-runs-job-entrypoint --stdin, alone', () => {
  it('agent-runs-job-entrypoint --stdin refuses what is not a dispatched run, naming the field, before starting anything', () => {
    const run = (input: string, args = ['--stdin']) => spawnSync(process.execPath, [JOB_ENTRYPOINT, ...args], { input, encoding: 'utf8', timeout: 15_000 });
    const notJson = run('{');
    expect(notJson.status).toBe(1);
    expect(notJson.stderr).toContain('stdin is not JSON');
    const noToken = run(JSON.stringify({ format: 'agent-runs.dispatch/v1', run_id: 'r1', execution: 1, worker_url: 'http://127.0.0.1:9', command: 'true', env: {}, secrets: {} }), ['--stdin', '--detach']);
    expect(noToken.status).toBe(1);
    expect(noToken.stderr).toMatch(/stdin is not a dispatched run: .*run_token/);
    expect(noToken.stderr).not.toMatch(/\n\s+at /);
    expect(run('', ['--detach']).stderr).toContain('--detach goes with --stdin');
    expect(run('', ['--nomad']).stderr).toContain('unknown option "--nomad"');
  });
});
