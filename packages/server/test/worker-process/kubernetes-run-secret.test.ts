import type { V1Job } from '@kubernetes/client-node';
import { describe, expect, it, type TestContext } from 'vitest';
import { jobName } from '../../src/worker-process/kubernetes/job-spec.js';
import { eventually } from '../support/eventually.js';
import { setUpKubernetesWorker } from '../support/kubernetes-worker.js';
import { olderServer } from '../support/older-server.js';
import type { ScriptedKubernetes } from '../support/scripted-kubernetes.js';
import { api, ended, outputOf } from '../support/server-api.js';

/**
 * The order a run's Job and its Secret are made in, against the scripted Kubernetes API
 * through the real @kubernetes/client-node: the Job suspended, then its Secret owned by it,
 * then the Job resumed. A worker killed (SIGKILL) between the two, and restarted, leaves no
 * Secret behind: the worker may not get or list Secrets, so one it lost track of would stay;
 * and its runs, whose agents never started, go back in line rather than end.
 */

const TOKEN = 'worker-k8s-secret-token-2b7e41';

/** A test's server, stand-in and workers (`startWorker(instance, server)`: one with that --instance-id, reaching the server there), each running four runs at once; every run's agent says it ran. */
async function setUp(context: TestContext) {
  const setup = await setUpKubernetesWorker(context, { token: TOKEN, agentSource: "console.log('agent ran');\n", workerArgs: ['--concurrency', '4'] });
  const startWorker = (instance?: string, server?: string) => setup.startWorker({ instance, server });
  const createRun = () => setup.createRun('run');
  return { ...setup, startWorker, createRun };
}

/** The run Secrets the stand-in holds now (the `<job>-run` ones the worker makes). */
const runSecretsIn = (cluster: ScriptedKubernetes) => [...cluster.secrets.keys()].filter((name) => name.endsWith('-run'));

describe("a run's Job and its Secret, against a scripted Kubernetes API", () => {
  it('makes the Job suspended, then its Secret owned by it, then resumes it: the pod starts with its Secret there, and no Secret is left after the run', async (context) => {
    const { server, cluster, startWorker, createRun } = await setUp(context);
    const started: { job: V1Job; secretOwner: string | undefined; secretThere: boolean }[] = [];
    cluster.script = (job) => {
      const secret = cluster.secretObjects.get(`${job.metadata!.name}-run`);
      started.push({ job, secretOwner: secret?.metadata?.ownerReferences?.[0]?.uid, secretThere: secret !== undefined });
      return 'run';
    };
    await startWorker();
    const id = await createRun();
    const run = await ended(server, id, 20_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(await outputOf(server, id)).toContain('agent ran');
    const name = cluster.created[0]!;
    // The pod was started once, from the resumed Job, its Secret there and owned by that Job from its making.
    expect(started).toHaveLength(1);
    expect(started[0]!.secretThere).toBe(true);
    expect(started[0]!.job.spec!.suspend).toBe(false);
    expect(started[0]!.secretOwner).toBe(started[0]!.job.metadata!.uid);
    // What was made and changed, in order (the reads between left out).
    const calls = cluster.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path.replace(/^.*\/namespaces\/[^/]+/, '')}`);
    expect(calls.slice(0, 3)).toEqual(['POST /jobs', 'POST /secrets', `PATCH /jobs/${name}`]);
    // At the run's end: its Job deleted (it succeeded), its Secret too.
    await eventually(() => runSecretsIn(cluster), (left) => left.length === 0);
    await eventually(() => cluster.jobs.size, (size) => size === 0);
    expect(cluster.secretsCreated).toEqual([`${name}-run`]);
  }, 40_000);

  it('a worker killed right after making the suspended Job, its Secret made or not, leaves no Secret: restarted, it deletes the Jobs and gives their runs back, which run again in new Jobs', async (context) => {
    const { server, cluster, startWorker, createRun } = await setUp(context);
    /** At each pod's start, the Jobs then alive for its run: one, its own, never the abandoned one beside it. */
    const alive: string[][] = [];
    cluster.script = (job) => {
      const runId = job.metadata!.annotations!['agent-runs/run-id'];
      alive.push([...cluster.jobs.values()].filter((s) => s.job.metadata!.annotations!['agent-runs/run-id'] === runId).map((s) => s.job.metadata!.name!));
      return 'run';
    };
    // The stand-in holds each Secret create: the worker is stopped between its Job and its Secret.
    cluster.holdSecretCreates = true;
    const first = await startWorker();
    const ids = [await createRun(), await createRun()];
    const held = await cluster.secretCreatesHeld(2);
    expect([...cluster.jobs.values()].map((j) => j.job.spec!.suspend)).toEqual([true, true]);
    const abandoned = [...cluster.created];
    first.child.kill('SIGKILL');
    await first.exited;
    // One create reached the API server before the worker died (the Secret is made, owned by its Job); the other never did.
    held[0]!.release();
    held[1]!.drop();
    cluster.holdSecretCreates = false;
    expect(runSecretsIn(cluster)).toEqual([held[0]!.name]);

    const second = await startWorker();
    const runs = await Promise.all(ids.map((id) => ended(server, id, 20_000)));
    for (const run of runs) expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    for (const id of ids) {
      // The first execution ended unstarted, the second ran: in a Job of its own, once.
      const steps = (await api(server, `/agent/runs/${id}/conversation`)).body.steps as { id: string; summary?: string }[];
      expect(steps.map((s) => s.id)).toEqual([`${id}:1`, `${id}:2`]);
      expect(steps[0]!.summary).toBe('The execution was stopped before it started.');
      expect(await outputOf(server, id)).toContain('The worker gave the run back before its agent started');
      expect(await outputOf(server, id)).toContain('agent ran');
    }
    expect(alive).toHaveLength(2);
    for (const names of alive) expect(names).toHaveLength(1);
    expect(alive.flat().sort()).toEqual(ids.map((id) => jobName(id, 2)).sort());
    // The suspended Jobs deleted first, in the foreground; the Secret that was made went with its owner; none is left.
    expect(cluster.deletions.slice(0, 2)).toEqual(abandoned.map((name) => ({ name, propagationPolicy: 'Foreground' })));
    await eventually(() => cluster.jobs.size, (size) => size === 0);
    await eventually(() => runSecretsIn(cluster), (left) => left.length === 0);
    expect(cluster.secretsDeleted).toContain(held[0]!.name);
    // Its own pipe, not the server's answer: waited for, as it may come after the runs are seen ended.
    await eventually(() => second.stderr(), (text) => /was still suspended after a restart; deleted with its Secret/.test(text) && /given back to the server, queued again/.test(text), 30_000);
  }, 60_000);

  it('a restarted worker whose server cannot take a run back (older, no give-back) ends it FAILED saying nothing ran, as before', async (context) => {
    const { server, cluster, startWorker, createRun } = await setUp(context);
    cluster.holdSecretCreates = true;
    const first = await startWorker();
    const id = await createRun();
    const [held] = await cluster.secretCreatesHeld(1);
    first.child.kill('SIGKILL');
    await first.exited;
    held!.drop();
    cluster.holdSecretCreates = false;

    const older = await olderServer(server.baseURL.replace(/\/api\/v1$/, ''), ['give-back']);
    context.onTestFinished(() => older.close());
    const second = await startWorker(undefined, older.url);
    const run = await ended(server, id, 20_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('FAILED');
    expect(run.status_message.message).toMatch(/^The worker restarted while it was starting the run's Job, before its agent started: nothing ran\./);
    expect(run.status_message.retryable).toBe(true);
    expect(cluster.deletions).toEqual([{ name: jobName(id, 1), propagationPolicy: 'Foreground' }]);
    expect(cluster.created).toEqual([jobName(id, 1)]);
    await eventually(() => second.stderr(), (text) => text.includes('could not give it back (the server has no give-back, older than this worker); it ends FAILED instead'), 30_000);
  }, 60_000);

  it("a Job another instance left suspended for over ten minutes is deleted with its Secret by the next worker to start; a younger one is left to its instance", async (context) => {
    const { cluster, startWorker, createRun } = await setUp(context);
    cluster.holdSecretCreates = true;
    const gone = await startWorker('kube-worker-0');
    await createRun();
    await createRun();
    const held = await cluster.secretCreatesHeld(2);
    gone.child.kill('SIGKILL');
    await gone.exited;
    // The Job made last is the one made old, and its Secret the one made: the stand-in lists Jobs in the order
    // they were made and the starting worker goes through them in turn, so once it has deleted that Job it has
    // already passed the younger one, and what it left is what it decided (not what it had not reached yet).
    const [young, oldJob] = cluster.created as [string, string];
    const made = held.find((h) => h.name === `${oldJob}-run`)!;
    made.release();
    held.find((h) => h !== made)!.drop();
    cluster.holdSecretCreates = false;
    // As if its instance had been gone for eleven minutes.
    [...cluster.jobs.values()].find((s) => s.job.metadata!.name === oldJob)!.job.metadata!.creationTimestamp = new Date(Date.now() - 11 * 60_000).toISOString() as never;

    const other = await startWorker('kube-worker-1');
    // Said once its delete was answered: the stand-in forgets the Job before it answers, and the line reaches
    // this process through a pipe of its own, so it is waited for rather than read when the Job is seen gone.
    await eventually(() => other.stderr(), (text) => text.includes(`Job ${oldJob} of another worker instance was left suspended for over 10 minutes`), 30_000);
    expect([...cluster.jobs.values()].map((s) => s.job.metadata!.name)).toEqual([young]);
    expect(cluster.deletions).toEqual([{ name: oldJob, propagationPolicy: 'Foreground' }]);
    expect(runSecretsIn(cluster)).toEqual([]);
    expect(cluster.secretsDeleted).toEqual([made.name]);
  }, 60_000);
});
