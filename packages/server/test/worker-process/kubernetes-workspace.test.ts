import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Job } from '@kubernetes/client-node';
import { describe, expect, it, type TestContext } from 'vitest';
import { entrypointToken } from '../../src/worker-process/kubernetes/entrypoint-token.js';
import { agentScriptCommand } from '../support/agent-script.js';
import { eventually } from '../support/eventually.js';
import { bareRemote } from '../support/git-remote.js';
import { setUpKubernetesWorker } from '../support/kubernetes-worker.js';
import type { ScriptedKubernetes } from '../support/scripted-kubernetes.js';
import { api, ended, outputOf, runOf } from '../support/server-api.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { killProcesses, type ServerProcess } from '../support/server-process.js';
import { freePort } from '../support/free-port.js';
import { createPoolRun, startPoolServer } from '../support/worker-pool-server.js';
import { JOB_ENTRYPOINT, startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * A run's environment prepared where its agent runs, not on the worker: in a Kubernetes
 * Job's pod (the scripted API stand-in, driven by the real @kubernetes/client-node, whose
 * "kubelet" runs the pod's entrypoint as a local process, its emptyDir a temporary
 * directory) and in a dispatched entrypoint. Real git: a bare repository cloned over
 * file://; real setup commands; real server and worker processes. A follow-up's new
 * execution fetches the run's patches from the worker's relay, which gives them to that
 * execution's token alone (its other routes' refusals are in kubernetes-followups.test.ts
 * and kubernetes-job-parts.test.ts).
 */

const TOKEN = 'worker-workspace-token-3f9a0c61e2';
const SECRET = 'deploy-key-value-91c4e07b2d';

/**
 * The agent: says where it runs, what the clone and the setup left there, and whether the
 * entrypoint's own variables reached it; execution 1 changes the repository's README. Asked
 * to `hold`, it stays until a follow-up reaches its inbox (which it says it took), so that
 * its execution's relay can be asked meanwhile.
 */
const AGENT_SOURCE = `
const fs = require('fs');
const read = (f) => { try { return fs.readFileSync(f, 'utf8').trim(); } catch { return 'missing'; } };
if (process.env.AGENT_RUNS_JOB_WORKSPACE !== undefined || process.env.AGENT_RUNS_JOB_TOKEN !== undefined) console.log('the entrypoint leaked');
console.log('cwd=' + process.cwd());
console.log('readme=' + read('repo/README.md').split('\\n').join('|'));
console.log('setup=' + read('setup.txt'));
if (process.env.AGENT_RUNS_EXECUTION === '1') fs.appendFileSync('repo/README.md', 'changed in the first pod\\n');
if ((process.env.AGENT_RUNS_PROMPT || '').trim() === 'hold') {
  console.log('holding');
  const look = () => {
    const line = fs.readFileSync(process.env.AGENT_RUNS_INBOX_FILE, 'utf8').split('\\n').find(Boolean);
    if (!line) return setTimeout(look, 50);
    fs.appendFileSync(process.env.AGENT_RUNS_REPORT_FILE, JSON.stringify({ type: 'FOLLOWUP_TAKEN', id: JSON.parse(line).id }) + '\\n');
  };
  look();
}
`;

/** The worker's environments: `proj` clones the bare repository and runs a setup that reads the secret; `broken`'s second step fails. */
function environmentSections(repoUrl: string): Record<string, unknown> {
  return {
    secrets: { DEPLOY_KEY: { from_env: 'WORKSPACE_TEST_DEPLOY_KEY' } },
    environments: {
      proj: {
        repos: [{ url: repoUrl, path: 'repo' }],
        setup_commands: ['echo "setup says hi"', 'printf %s "$DEPLOY_KEY" | wc -c | tr -d " " > setup.txt'],
        secrets: ['DEPLOY_KEY'],
      },
      broken: { setup_commands: ['echo "preparing"', 'echo "no such tool" >&2; exit 3', 'echo never'] },
      // Past what one variable of a pod may hold: its pod could not start.
      huge: { setup_commands: [`echo ${'x'.repeat(130 * 1024)}`] },
    },
  };
}

/** The server declares the environments by id; what they hold is the worker's. */
const SERVER_ENVIRONMENTS = { environments: { proj: {}, broken: {}, huge: {} } };

/** What one test started, ended when it finishes (the tests run at once: none ends another's). */
class Started {
  readonly processes: (ServerProcess | WorkerProcess)[] = [];
  /** Files listing the dispatched entrypoints' pids: each leads a session of its own. */
  readonly entrypointLists: string[] = [];

  async end(): Promise<void> {
    await killProcesses(this.processes);
    for (const file of this.entrypointLists) {
      if (!existsSync(file)) continue;
      for (const pid of readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number)) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // Gone.
        }
      }
    }
  }
}

/** A test's own Started, ended with it. */
function started(onTestFinished: (fn: () => Promise<void>) => void): Started {
  const s = new Started();
  onTestFinished(() => s.end());
  return s;
}

interface Setup {
  server: ServerProcess;
  repoUrl: string;
  createRun(prompt: string, environment: string): Promise<string>;
}

/**
 * A stand-in for Claude Code in the pod: its result says what it found in its working
 * directory (the clone's README, the setup's file); it changes the README, as an agent would.
 */
function podClaude(): string {
  const dir = tempTree(
    {
      claude: [
        '#!/bin/sh',
        'cat > /dev/null',
        'r=$(head -n 1 repo/README.md 2>/dev/null || echo missing)',
        's=$(cat setup.txt 2>/dev/null || echo missing)',
        'echo "changed by the harness" >> repo/README.md',
        `echo '{"type":"system","subtype":"init","session_id":"pod-session"}'`,
        'echo "{\\"type\\":\\"result\\",\\"subtype\\":\\"success\\",\\"result\\":\\"readme $r, setup $s\\",\\"is_error\\":false}"',
        '',
      ].join('\n'),
    },
    'agent-runs-pod-claude-',
  );
  chmodSync(join(dir, 'claude'), 0o755);
  return join(dir, 'claude');
}

/** A server, the stand-in and a Kubernetes-backend worker given the environments' secret, ended with the test; `sections`: more of the worker's configuration. */
async function kubernetesSetUp(context: TestContext, sections: { kubernetes?: Record<string, unknown>; harnesses?: Record<string, unknown> } = {}): Promise<Setup & { cluster: ScriptedKubernetes; seen: V1Job[] }> {
  const repoUrl = `file://${bareRemote({ 'README.md': 'hello from the repository\n' })}`;
  const { server, cluster, startWorker, createRun } = await setUpKubernetesWorker(context, {
    token: TOKEN,
    serverSections: SERVER_ENVIRONMENTS,
    agentSource: AGENT_SOURCE,
    kubernetes: sections.kubernetes,
    workerSections: { ...environmentSections(repoUrl), ...(sections.harnesses ? { harnesses: sections.harnesses } : {}) },
  });
  const seen: V1Job[] = [];
  cluster.script = (job) => {
    seen.push(job);
    return 'run';
  };
  await startWorker({ env: { WORKSPACE_TEST_DEPLOY_KEY: SECRET } });
  return { server, cluster, seen, repoUrl, createRun: (prompt, environment) => createRun(prompt, { environment_id: environment }) };
}

/** A server and a command-backend worker whose dispatch script starts the entrypoint detached (setsid), each noted to be ended with the test. */
async function dispatchSetUp(own: Started): Promise<Setup & { relayUrl: string; dispatched(): number }> {
  const server = await startPoolServer(own.processes, { token: TOKEN, workerHost: 'remote', sections: SERVER_ENVIRONMENTS });
  const dir = mkdtempSync(join(tmpdir(), 'worker-workspace-dispatch-'));
  const list = join(dir, 'entrypoints');
  own.entrypointLists.push(list);
  const dispatcher = join(dir, 'dispatch.sh');
  writeFileSync(
    dispatcher,
    ['#!/bin/sh', 'exec 3<&0', `setsid ${JSON.stringify(process.execPath)} ${JSON.stringify(JOB_ENTRYPOINT)} --stdin <&3 >>${dir}/entrypoint.log 2>&1 &`, `echo $! >> ${list}`, 'exit 0', ''].join('\n'),
  );
  chmodSync(dispatcher, 0o755);
  const repoUrl = `file://${bareRemote({ 'README.md': 'hello from the repository\n' })}`;
  const worker = await startWorkerProcess(
    [
      '--server', server.baseURL.replace(/\/api\/v1$/, ''),
      '--worker-host', 'remote',
      '--backend', 'command',
      '--dispatch-command', dispatcher,
      '--config', writeServerConfig(environmentSections(repoUrl), tempTree()),
      '--command', agentScriptCommand(dir, AGENT_SOURCE),
      '--job-listen', `127.0.0.1:${await freePort()}`,
      '--work-dir', mkdtempSync(join(tmpdir(), 'worker-workspace-work-')),
      '--instance-id', 'dispatcher-0',
    ],
    TOKEN,
    { ...process.env, WORKSPACE_TEST_DEPLOY_KEY: SECRET },
  );
  own.processes.push(worker);
  // Where the entrypoints report, as the worker said it at its start.
  const said = /report to (http:\/\/127\.0\.0\.1:\d+)/;
  const relayUrl = said.exec(await eventually(() => worker.stderr(), (text) => said.test(text), 30_000))![1]!;
  const dispatched = () => (existsSync(list) ? readFileSync(list, 'utf8').split('\n').filter(Boolean).length : 0);
  return { server, repoUrl, relayUrl, dispatched, createRun: (prompt, environment) => createPoolRun(expect, server, 'remote', prompt, { environment_id: environment }) };
}

/**
 * A run of `proj` ended SUCCEEDED, its agent having run where the environment was prepared:
 * `cwd` says where that is. Returns the run.
 */
async function expectPreparedWorkspace(server: ServerProcess, id: string, { repoUrl, cwd }: { repoUrl: string; cwd: RegExp }) {
  const run = await ended(server, id, 30_000);
  expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
  const output = await outputOf(server, id);
  // The setup's output streams to the run, each step named as the local executor names it.
  expect(output).toContain(`$ git clone ${repoUrl} repo`);
  expect(output).toContain('setup says hi');
  expect(output).toContain('readme=hello from the repository\\n');
  // The setup step got the environment's secret (its length written to a file the agent reads in the same directory).
  expect(output).toContain(`setup=${SECRET.length}\\n`);
  expect(output).toMatch(cwd);
  expect(output).not.toContain('the entrypoint leaked');
  // What the agent changed came back as the run's changes.patch.
  expect((run.artifacts as { data: { filename: string } }[]).some((a) => a.data.filename === 'changes.patch')).toBe(true);
  return run;
}

/** The run's first execution changed the README; a follow-up's new execution clones again and applies that execution's changes.patch before its agent starts. */
async function expectFollowupRestoresWorkspace(server: ServerProcess, id: string): Promise<void> {
  expect((await ended(server, id, 30_000)).state).toBe('SUCCEEDED');
  const sent = await api(server, `/agent/runs/${id}/followups`, { method: 'POST', body: { message: 'read it again' } });
  expect(sent.status).toBeLessThan(300);
  await eventually(() => outputOf(server, id), (output) => output.includes('readme=hello from the repository|changed in the first pod'), 30_000);
  await eventually(() => runOf(server, id), (run) => run.state === 'SUCCEEDED', 15_000);
  const output = await outputOf(server, id);
  expect(output).toContain('the checkout of environment proj');
  expect(output).toContain("the run's changes.patch applied (1 of 1)");
}

describe('a run with an environment, on a Kubernetes worker', () => {
  it.concurrent('is cloned and set up in its pod, the agent running there; the Job spec holds neither the repository nor the secret', async (context) => {
    const { server, cluster, seen, repoUrl, createRun } = await kubernetesSetUp(context);
    // In the pod's emptyDir, not the worker's directory nor the image's.
    await expectPreparedWorkspace(server, await createRun('look around', 'proj'), { repoUrl, cwd: /cwd=[^"]*scripted-kubernetes-emptydir-[^"]*\/agent-runs-job-[^"]*\/work\// });
    // The Job spec: the emptyDir mounted, and neither the repository's URL nor the secret's value (they are in the run's Secret).
    expect(seen).toHaveLength(1);
    const spec = JSON.stringify(seen[0]);
    expect(spec).not.toContain(repoUrl);
    expect(spec).not.toContain(SECRET);
    const pod = seen[0]!.spec!.template.spec!;
    expect(pod.volumes).toEqual([{ name: 'work', emptyDir: {} }]);
    expect(pod.containers[0]!.volumeMounts).toEqual([{ name: 'work', mountPath: '/agent-runs/work' }]);
    const refs = Object.fromEntries((pod.containers[0]!.env ?? []).map((e) => [e.name, e.valueFrom?.secretKeyRef?.name]));
    expect(refs['AGENT_RUNS_JOB_WORKSPACE']).toBe(`${seen[0]!.metadata!.name}-run`);
    expect(refs['DEPLOY_KEY']).toBe(`${seen[0]!.metadata!.name}-run`);
    expect(cluster.created).toHaveLength(1);
  }, 60_000);

  it.concurrent('ends FAILED naming the setup step that failed, and the agent never starts', async (context) => {
    const { server, createRun } = await kubernetesSetUp(context);
    const id = await createRun('look around', 'broken');
    const run = await ended(server, id, 30_000);
    expect(run.state).toBe('FAILED');
    expect(run.status_message.error_code).toBe('environment_setup_failed');
    expect(run.status_message.message).toContain('Environment "broken" setup failed: `echo "no such tool" >&2; exit 3` exited with code 3');
    expect(run.status_message.message).toContain('no such tool');
    const output = await outputOf(server, id);
    expect(output).toContain('preparing');
    expect(output).not.toContain('$ echo never');
    expect(output).not.toContain('cwd=');
  }, 60_000);

  it.concurrent('ends FAILED naming the environment when its description is over what one variable of the pod may hold, and makes no Job', async (context) => {
    const { server, cluster, createRun } = await kubernetesSetUp(context);
    const id = await createRun('look around', 'huge');
    const run = await ended(server, id, 30_000);
    expect(run.state).toBe('FAILED');
    expect(run.status_message.message).toContain('agent_config.environment_id: environment "huge"');
    expect(run.status_message.message).toContain('over the 130048 bytes one variable of the pod may hold');
    expect(cluster.created).toEqual([]);
  }, 60_000);

  it.concurrent("runs a harness's CLI in the prepared directory, and hands back what it changed", async (context) => {
    const { server, cluster, createRun } = await kubernetesSetUp(context, {
      kubernetes: { secret_env: { ANTHROPIC_API_KEY: { secret: 'model-keys', key: 'anthropic' } } },
      harnesses: { claude: { command: podClaude() } },
    });
    cluster.secrets.set('model-keys', { anthropic: 'sk-ant-pod-5e1d' });
    const created = await api(server, '/agent/run', { method: 'POST', body: { prompt: 'look around', config: { worker_host: 'kube', environment_id: 'proj', harness: { type: 'claude' } } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.run_id as string;
    const run = await ended(server, id, 30_000);
    expect(run.state, `${JSON.stringify(run.status_message)}\n${await outputOf(server, id)}`).toBe('SUCCEEDED');
    expect(run.status_message.message).toBe(`readme hello from the repository, setup ${SECRET.length}`);
    expect((run.artifacts as { data: { filename: string } }[]).some((a) => a.data.filename === 'changes.patch')).toBe(true);
  }, 60_000);

  it.concurrent("runs a follow-up in a new Job that clones again and applies the first Job's changes", async (context) => {
    const { server, cluster, createRun } = await kubernetesSetUp(context);
    await expectFollowupRestoresWorkspace(server, await createRun('change the readme', 'proj'));
    expect(cluster.created).toHaveLength(2);
    expect(cluster.created[0]).not.toBe(cluster.created[1]);
  }, 90_000);
});

describe('a run with an environment, on a dispatch-command worker', () => {
  it.concurrent('is cloned and set up by the dispatched entrypoint, the agent running there', async ({ onTestFinished }) => {
    const { server, repoUrl, createRun } = await dispatchSetUp(started(onTestFinished));
    await expectPreparedWorkspace(server, await createRun('look around', 'proj'), { repoUrl, cwd: /cwd=[^"]*\/agent-runs-job-[^"]*\/work\// });
  }, 60_000);

  it.concurrent("runs a follow-up in a newly dispatched entrypoint that clones again and fetches the first execution's changes from the relay", async ({ onTestFinished }) => {
    const { server, createRun, dispatched } = await dispatchSetUp(started(onTestFinished));
    await expectFollowupRestoresWorkspace(server, await createRun('change the readme', 'proj'));
    expect(dispatched()).toBe(2);
  }, 90_000);

  it.concurrent("gives a follow-up's patch to its own execution's token alone, refusing the rest without a word of it", async ({ onTestFinished }) => {
    const { server, relayUrl, createRun } = await dispatchSetUp(started(onTestFinished));
    const id = await createRun('change the readme', 'proj');
    const first = await ended(server, id, 30_000);
    expect(first.state).toBe('SUCCEEDED');
    // The follow-up's agent holds: the relay holds the run's patches while the execution runs.
    expect((await api(server, `/agent/runs/${id}/followups`, { method: 'POST', body: { message: 'hold' } })).status).toBeLessThan(300);
    await eventually(() => outputOf(server, id), (output) => output.includes('holding'), 30_000);
    const claim = (await runOf(server, id)).started_at as string;
    // Claimed again for the follow-up: the first execution's token is of another claim.
    expect(claim).not.toBe(first.started_at);
    const token = entrypointToken(TOKEN, id, claim);
    const patch = (n: string, authorization?: string) => fetch(`${relayUrl}/runs/${id}/patches/${n}`, { headers: authorization ? { authorization } : {} });
    const own = await patch('0', `Bearer ${token}`);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('+changed in the first pod');
    /** A refusal: its status, a line of plain text that holds nothing of the patch. */
    const refused = async (answer: Response, status: number): Promise<string> => {
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-type')).toBe('text/plain');
      const text = await answer.text();
      expect(text).not.toContain('changed in the first pod');
      return text;
    };
    expect(await refused(await patch('0'), 401)).toMatch(/token is missing/);
    await refused(await patch('0', `Basic ${Buffer.from(`x:${token}`).toString('base64')}`), 401);
    expect(await refused(await patch('0', 'Bearer not-a-run-token'), 403)).toMatch(/not this run's/);
    await refused(await patch('0', `Bearer ${entrypointToken(TOKEN, 'another-run', claim)}`), 403);
    // An old execution's entrypoint (its pod or host kept) opens nothing of the new one.
    await refused(await patch('0', `Bearer ${entrypointToken(TOKEN, id, first.started_at as string)}`), 403);
    await refused(await patch('0', `Bearer ${entrypointToken('another-worker-token-7d21', id, claim)}`), 403);
    expect(await refused(await patch('1', `Bearer ${token}`), 404)).toMatch(/has 1 patch\(es\); there is no patch 1/);
    await refused(await patch('9999', `Bearer ${token}`), 404);
    for (const n of ['-1', 'abc', '0x0', '1.0', '10000']) await refused(await patch(n, `Bearer ${token}`), 404);
    await refused(await fetch(`${relayUrl}/runs/${id}/patches/0`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }), 405);
    // The follow-up that lets the agent end.
    expect((await api(server, `/agent/runs/${id}/followups`, { method: 'POST', body: { message: 'go on' } })).status).toBeLessThan(300);
    expect((await ended(server, id, 30_000)).state).toBe('SUCCEEDED');
    // Ended here: its own token gets 410, as on the relay's other routes.
    expect(await refused(await patch('0', `Bearer ${token}`), 410)).toMatch(/not running here/);
  }, 90_000);
});
