import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { eventually } from '../support/eventually.js';
import { setUpKubernetesWorker } from '../support/kubernetes-worker.js';
import { expectLeakMasked, leakingAgentSource } from '../support/leaking-agent.js';
import { outputOf } from '../support/server-api.js';

/**
 * A run's environment's secrets stay masked in its output when the worker that made its Job
 * is killed and another follows the Job again: the pod's entrypoint masks them with the
 * values the pod was given, so neither a restart nor a secret rotated meanwhile in the
 * worker's configuration lets one through. A real server and worker process, the real
 * @kubernetes/client-node, and the scripted Kubernetes API stand-in, whose "kubelet" runs
 * each pod's entrypoint (and agent) as a local process that outlives the worker.
 */

const TOKEN = 'worker-k8s-mask-token-8c3d5e19a7';
/** The environment's secret as the run's pod got it. */
const SECRET = 'deploy-key-at-start-6f1e0b7d42';
/** Its value in the restarted worker's configuration: rotated meanwhile. */
const ROTATED = 'deploy-key-rotated-93a0c58e1b';

/** The environment `vault` gives its runs DEPLOY_KEY; the agent leaks it around the go file its prompt names. */
async function setUp(context: TestContext) {
  const setup = await setUpKubernetesWorker(context, {
    token: TOKEN,
    serverSections: { environments: { vault: {} } },
    agentSource: leakingAgentSource("(process.env.AGENT_RUNS_PROMPT || '').trim()"),
    workerSections: { secrets: { DEPLOY_KEY: { from_env: 'K8S_TEST_DEPLOY_KEY' } }, environments: { vault: { secrets: ['DEPLOY_KEY'] } } },
  });
  /** `secret`: DEPLOY_KEY's value in this worker's configuration. */
  const startWorker = (secret: string) => setup.startWorker({ env: { K8S_TEST_DEPLOY_KEY: secret } });
  return { ...setup, startWorker };
}

describe("a reattached Job's output, against a scripted Kubernetes API", () => {
  it("a worker killed (-9) while its run's agent runs, then restarted with the secret rotated: what the agent prints after holds the mask, never the secret it was given", async (context) => {
    const { expect } = context;
    const { server, cluster, dir, startWorker, createRun } = await setUp(context);
    const first = await startWorker(SECRET);
    const go = join(dir, 'go');
    const id = await createRun(go, { environment_id: 'vault' });
    await eventually(() => outputOf(server, id), (output) => output.includes('before'), 30_000);
    expect(cluster.jobOf(id)!.env!['DEPLOY_KEY']).toBe(SECRET);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startWorker(ROTATED);
    await eventually(() => second.stderr(), (stderr) => /followed again after a restart/.test(stderr), 30_000);
    writeFileSync(go, '');
    await expectLeakMasked(expect, server, id, SECRET);
    expect(cluster.created).toHaveLength(1);
  }, 90_000);
});
