import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Job } from '@kubernetes/client-node';
import { describe, it } from 'vitest';
import { tempTree } from '../support/server-config.js';
import { JOB_ENTRYPOINT } from '../support/worker-process.js';
import { setUpKubernetesWorker } from '../support/kubernetes-worker.js';
import { ended, outputOf } from '../support/server-api.js';

/**
 * The operator's own Secrets, which the worker configuration's `kubernetes.secret_env` and
 * `env_from_secrets` give every pod (a model key), are masked in what the agent prints and
 * reports, as the run's environment's secrets are, though the worker never reads their
 * values. A real server and worker process, the real @kubernetes/client-node, and the
 * scripted Kubernetes API stand-in, whose "kubelet" resolves the Secrets and runs each pod's
 * entrypoint (and agent) as a local process.
 */

const TOKEN = 'worker-k8s-operator-secrets-token-41c7e2';
const MODEL_KEY = 'sk-model-operator-2b7f94e1';
const BULK_KEY = 'bulk-operator-8d03c6a5f2';
/** Under the mask's minimum length: masking it everywhere would shred the output (`SecretMask`). */
const SHORT = 'q7';

/** The agent prints what its pod's Secrets gave it, plainly and base64, and names them in its result. */
const AGENT_SOURCE = `
const fs = require('fs');
const { MODEL_API_KEY, BULK_KEY, SHORT_VALUE } = process.env;
console.log('model ' + MODEL_API_KEY);
console.log('bulk ' + BULK_KEY);
console.error('encoded ' + Buffer.from(MODEL_API_KEY + ' ' + BULK_KEY).toString('base64'));
console.log('short ' + SHORT_VALUE + ' in q7q7');
console.log('mask dir ' + (process.env.AGENT_RUNS_JOB_MASKED_DIR === undefined ? 'unset' : 'given'));
fs.writeFileSync(process.env.AGENT_RUNS_REPORT_FILE, JSON.stringify({ type: 'RESULT', message: 'used ' + MODEL_API_KEY + ' and ' + BULK_KEY }) + '\\n');
`;

describe("the operator's Secrets in a pod's output, against a scripted Kubernetes API", () => {
  it('masks the values of secret_env and of every key of env_from_secrets in the output and the result; a value too short to mask is left', async (context) => {
    const { expect } = context;
    const { cluster, server, startWorker, createRun } = await setUpKubernetesWorker(context, {
      token: TOKEN,
      agentSource: AGENT_SOURCE,
      kubernetes: { secret_env: { MODEL_API_KEY: { secret: 'model-keys', key: 'anthropic' } }, env_from_secrets: ['bulk-keys'] },
    });
    cluster.secrets.set('model-keys', { anthropic: MODEL_KEY });
    cluster.secrets.set('bulk-keys', { BULK_KEY, SHORT_VALUE: SHORT });
    let job: V1Job | undefined;
    cluster.script = (made) => {
      job = made;
      return 'run';
    };
    await startWorker();
    const id = await createRun('print the keys');
    const run = await ended(server, id, 30_000);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const output = await outputOf(server, id);
    expect(output).toContain('model ***');
    expect(output).toContain('bulk ***');
    expect(output).toContain('encoded ***');
    for (const value of [MODEL_KEY, BULK_KEY, Buffer.from(MODEL_KEY).toString('base64').slice(0, 24)]) expect(output).not.toContain(value);
    expect(output).toContain(`short ${SHORT} in q7q7`);
    expect(output).toContain('mask dir unset');
    expect(run.status_message.message).toBe('used *** and ***');

    // The worker names the variables and mounts the Secret for the entrypoint to list its keys; no value is in the spec.
    const pod = job!.spec!.template.spec!;
    const container = pod.containers[0]!;
    expect(JSON.parse(container.env!.find((e) => e.name === 'AGENT_RUNS_JOB_MASKED')!.value!)).toContain('MODEL_API_KEY');
    expect(pod.volumes).toContainEqual({ name: 'env-from-0', secret: { secretName: 'bulk-keys', optional: true, defaultMode: 0o400 } });
    expect(container.volumeMounts).toContainEqual({ name: 'env-from-0', mountPath: '/var/run/agent-runs/env-from/bulk-keys', readOnly: true });
    expect(JSON.stringify(job)).not.toContain(BULK_KEY);
  }, 60_000);

  it('an entrypoint that cannot list the mounted Secrets runs nothing, naming the variable, rather than relay their values unmasked', { timeout: 30_000 }, ({ expect }) => {
    const dir = tempTree();
    const ran = join(dir, 'ran');
    const result = spawnSync(process.execPath, [JOB_ENTRYPOINT], {
      env: {
        PATH: process.env['PATH'],
        AGENT_RUNS_JOB_URL: 'http://127.0.0.1:9',
        AGENT_RUNS_JOB_TOKEN: 'a-run-token',
        AGENT_RUNS_JOB_COMMAND: `touch ${JSON.stringify(ran)}`,
        AGENT_RUNS_RUN_ID: 'run-1',
        AGENT_RUNS_JOB_MASKED: '[]',
        AGENT_RUNS_JOB_MASKED_DIR: join(dir, 'not-mounted'),
      },
      encoding: 'utf8',
      // One that ran on would try to report for minutes, deaf to SIGTERM while its agent stops.
      timeout: 20_000,
      killSignal: 'SIGKILL',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/the Secrets mounted at AGENT_RUNS_JOB_MASKED_DIR \(.*not-mounted\) cannot be read \(ENOENT\); nothing is run/);
    expect(existsSync(ran)).toBe(false);
  });
});
