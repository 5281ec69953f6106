import { existsSync, mkdtempSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { entrypointToken } from '../../src/worker-process/kubernetes/entrypoint-token.js';
import { agentScriptCommand } from '../support/agent-script.js';
import { eventually } from '../support/eventually.js';
import { setUpKubernetesWorker } from '../support/kubernetes-worker.js';
import { ScriptedKubernetes, type PodScript } from '../support/scripted-kubernetes.js';
import { api, ended, outputOf, runOf } from '../support/server-api.js';
import { killProcesses, type ServerProcess } from '../support/server-process.js';
import { createPoolRun, startPoolServer } from '../support/worker-pool-server.js';
import { JOB_ENTRYPOINT, startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * Follow-ups sent through the server's API while a run's agent runs in a Kubernetes Job (the
 * scripted Kubernetes API, through the real @kubernetes/client-node) or where a dispatch
 * command started the entrypoint: the worker queues them, the real entrypoint fetches them
 * from the worker's relay under the run's token and appends them to its agent's inbox, and
 * what the agent says it took comes back with its end. One the entrypoint never fetched
 * waits for the run's next execution.
 */

const TOKEN = 'worker-pod-followups-token-5c2a9e';

/** The agent: `wait` waits for a line in its inbox, prints it, says it took it and ends; anything else is printed back. */
const AGENT_SOURCE = `
const fs = require('fs');
const prompt = (process.env.AGENT_RUNS_PROMPT || '').trim();
if (prompt !== 'wait') {
  console.log('asked: ' + prompt);
  process.exit(0);
}
console.log('ready');
const since = Date.now();
const look = () => {
  const line = fs.readFileSync(process.env.AGENT_RUNS_INBOX_FILE, 'utf8').split('\\n').find(Boolean);
  if (line) {
    const followup = JSON.parse(line);
    console.log('got: ' + followup.message);
    const report = [{ type: 'FOLLOWUP_TAKEN', id: followup.id }, { type: 'RESULT', message: 'took: ' + followup.message }];
    fs.appendFileSync(process.env.AGENT_RUNS_REPORT_FILE, report.map((r) => JSON.stringify(r) + '\\n').join(''));
    return;
  }
  if (Date.now() - since > 60000) {
    console.log('no follow-up came');
    process.exit(3);
  }
  setTimeout(look, 50);
};
look();
`;

interface Setup {
  server: ServerProcess;
  worker: WorkerProcess;
  createRun(prompt: string): Promise<string>;
}

/** A server, the stand-in cluster and a Kubernetes-backend worker, ended with the test; `script` says what the pod of the nth Job does. */
async function kubernetesSetUp(context: TestContext, script: (job: number) => PodScript = () => 'run'): Promise<Setup & { cluster: ScriptedKubernetes }> {
  const { server, cluster, startWorker, createRun } = await setUpKubernetesWorker(context, { token: TOKEN, agentSource: AGENT_SOURCE });
  let jobs = 0;
  cluster.script = () => script(++jobs);
  const worker = await startWorker({ instance: 'kube-followups-0' });
  return { server, worker, cluster, createRun };
}

/** A server and a command-backend worker whose dispatch script starts the entrypoint detached (setsid), ended with the test. */
async function dispatchSetUp({ expect, onTestFinished }: TestContext): Promise<Setup & { relayUrl: string }> {
  const processes: (ServerProcess | WorkerProcess)[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'pod-followups-dispatch-'));
  onTestFinished(async () => {
    await killProcesses(processes);
    // The detached entrypoints, each the leader of a group of its own.
    const file = join(dir, 'entrypoints');
    for (const pid of existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : []) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
  });
  const server = await startPoolServer(processes, { token: TOKEN, workerHost: 'remote' });
  const dispatcher = join(dir, 'dispatch.sh');
  writeFileSync(
    dispatcher,
    ['#!/bin/sh', 'exec 3<&0', `setsid ${JSON.stringify(process.execPath)} ${JSON.stringify(JOB_ENTRYPOINT)} --stdin <&3 >>${dir}/entrypoint.log 2>&1 &`, `echo $! >> ${dir}/entrypoints`, 'exit 0', ''].join('\n'),
  );
  chmodSync(dispatcher, 0o755);
  const root = server.baseURL.replace(/\/api\/v1$/, '');
  const worker = await startWorkerProcess(
    ['--server', root, '--worker-host', 'remote', '--backend', 'command', '--dispatch-command', dispatcher, '--command', agentScriptCommand(dir, AGENT_SOURCE), '--job-listen', '127.0.0.1:0', '--work-dir', join(dir, 'work'), '--instance-id', 'dispatch-followups-0'],
    TOKEN,
  );
  processes.push(worker);
  // Where the entrypoints report, as the worker said it at its start.
  const said = /report to (http:\/\/127\.0\.0\.1:\d+)/;
  const stderr = await eventually(() => worker.stderr(), (text) => said.test(text), 30_000);
  return { server, worker, relayUrl: said.exec(stderr)![1]!, createRun: (prompt) => createPoolRun(expect, server, 'remote', prompt) };
}

const sendFollowup = (server: ServerProcess, id: string, message: string) => api(server, `/agent/runs/${id}/followups`, { method: 'POST', body: { message } });

async function conversationOf(server: ServerProcess, id: string): Promise<string[][]> {
  const { body } = await api(server, `/agent/runs/${id}/conversation`);
  return body.steps.map((s: { messages: { role: string; content: { text: string }[] }[] }) => s.messages.map((m) => `${m.role}: ${m.content[0]!.text}`));
}

/** The agent runs, waiting for its inbox; a follow-up is sent through the API; the run ends having taken it in the same execution. */
async function followupReachesTheAgent(expect: TestContext['expect'], { server, createRun }: Setup): Promise<string> {
  const id = await createRun('wait');
  await eventually(() => outputOf(server, id), (output) => output.includes('ready'), 60_000);
  const sent = await sendFollowup(server, id, 'also tidy the docs');
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  expect(sent.body.state).toBe('INPROGRESS');
  const run = await ended(server, id, 60_000);
  expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
  expect(run.status_message.message).toBe('took: also tidy the docs');
  expect(await outputOf(server, id)).toContain('got: also tidy the docs');
  // Taken by the execution that ran: no next execution answers it.
  expect(await conversationOf(server, id)).toEqual([['user: wait', 'user: also tidy the docs', 'assistant: took: also tidy the docs']]);
  return id;
}

describe.concurrent('follow-ups to a run whose agent runs elsewhere', () => {
  it.concurrent("reach a Kubernetes Job's agent through its inbox while it runs, and the one it took is not answered again", async (context) => {
    const setup = await kubernetesSetUp(context);
    await followupReachesTheAgent(context.expect, setup);
    context.expect(setup.cluster.created).toHaveLength(1);
    context.expect(setup.worker.stderr()).toMatch(/follow-up \S+ queued for its entrypoint/);
  }, 120_000);

  it.concurrent("reach a dispatched entrypoint's agent the same way; once the run ended, the relay refuses its token", async (context) => {
    const { expect } = context;
    const setup = await dispatchSetUp(context);
    const id = await followupReachesTheAgent(expect, setup);
    const claim = (await runOf(setup.server, id)).started_at as string;
    const fetchFollowups = (token: string) => fetch(`${setup.relayUrl}/runs/${id}/followups`, { headers: { authorization: `Bearer ${token}` } });
    // Ended here: its own token gets 410, as on the relay's other routes (an entrypoint still asking stops its agent).
    expect((await fetchFollowups(entrypointToken(TOKEN, id, claim))).status).toBe(410);
  }, 120_000);

  it.concurrent("refuses another run's token for a dispatched run's follow-ups while it runs", async (context) => {
    const { expect } = context;
    const setup = await dispatchSetUp(context);
    const id = await setup.createRun('wait');
    await eventually(() => outputOf(setup.server, id), (output) => output.includes('ready'), 60_000);
    const claim = (await runOf(setup.server, id)).started_at as string;
    const asked = await fetch(`${setup.relayUrl}/runs/${id}/followups`, { headers: { authorization: `Bearer ${entrypointToken(TOKEN, 'another-run', claim)}` } });
    expect(asked.status).toBe(403);
    expect(await asked.text()).toMatch(/not this run's/);
    // The run's own entrypoint still gets what is sent.
    expect((await sendFollowup(setup.server, id, 'done')).status).toBe(200);
    expect((await ended(setup.server, id, 60_000)).state).toBe('SUCCEEDED');
  }, 120_000);

  it.concurrent('keep a follow-up no entrypoint fetched (the Job never ran and was deleted) for the run\'s next execution, which answers it', async (context) => {
    const { expect } = context;
    // The first Job's pod is never scheduled: no entrypoint runs to fetch; the next runs.
    const setup = await kubernetesSetUp(context, (job) => (job === 1 ? 'unschedulable' : 'run'));
    const { server, worker, cluster } = setup;
    const id = await setup.createRun('first');
    await eventually(() => cluster.jobOf(id)?.pod !== undefined, (there) => there, 60_000);
    expect((await runOf(server, id)).state).toBe('INPROGRESS');
    const sent = await sendFollowup(server, id, 'answer me later');
    expect(sent.status).toBe(200);
    await eventually(() => worker.stderr(), (stderr) => /follow-up \S+ queued for its entrypoint/.test(stderr), 30_000);
    // An operator deletes the Job: the execution ends without an entrypoint ever having asked for the follow-up.
    const name = cluster.created[0]!;
    const deleted = await fetch(`${cluster.url}/apis/batch/v1/namespaces/agent-runs-test/jobs/${name}`, { method: 'DELETE', headers: { authorization: `Bearer ${ScriptedKubernetes.bearer}` } });
    expect(deleted.status).toBe(200);
    // The follow-up still pending, the run goes back in line and its next Job answers it.
    await eventually(() => cluster.created.length, (count) => count === 2, 60_000);
    const run = await ended(server, id, 60_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(await outputOf(server, id)).toContain('asked: answer me later');
    const steps = await conversationOf(server, id);
    expect(steps).toHaveLength(2);
    expect(steps[0]![0]).toBe('user: first');
    expect(steps[1]![0]).toBe('user: answer me later');
  }, 120_000);
});
