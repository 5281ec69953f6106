import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { processAlive } from '../../../../test/support/process-alive.js';
import { agentScriptCommand } from '../support/agent-script.js';
import { eventually } from '../support/eventually.js';
import { setUpKubernetesWorker } from '../support/kubernetes-worker.js';
import { api, ended, outputOf } from '../support/server-api.js';
import { tempTree } from '../support/server-config.js';

/**
 * A pod's stop (a cancel's Job delete, the Job's deadline) reaches the agent even when the
 * worker's `--command` is a shell line that does not exec it: the agent gets its SIGTERM
 * and stops on its own, rather than being killed with the container after its grace. A real
 * server and worker process, the real @kubernetes/client-node, and the scripted Kubernetes
 * API stand-in, whose "kubelet" signals the pod's first process alone, as a kubelet does.
 */

const TOKEN = 'worker-k8s-pod-stop-token-8c1d27e4b0';

/** An agent that ticks until SIGTERM, then marks it, says so and exits; its pid goes in the directory its prompt names. */
const AGENT_SOURCE = `
const fs = require('fs');
const marks = (process.env.AGENT_RUNS_PROMPT || '').trim();
process.on('SIGTERM', () => {
  fs.writeFileSync(marks + '/stopping', '');
  console.log('stopping');
  process.exit(0);
});
fs.writeFileSync(marks + '/pid', String(process.pid));
setInterval(() => console.log('tick'), 200);
`;

describe.concurrent('a pod stopped while its agent runs under a shell that forked it', () => {
  it.for(['cancel', 'deadline'] as const)('a %s: the agent gets SIGTERM and stops on its own, nothing of it left running', { timeout: 60_000 }, async (how, context) => {
    const { expect } = context;
    const { startWorker, createRun, server, dir } = await setUpKubernetesWorker(context, { token: TOKEN, agentSource: AGENT_SOURCE });
    // A compound line: the shell forks the agent and waits to run what follows.
    await startWorker({ args: ['--command', `${agentScriptCommand(dir, AGENT_SOURCE)}; echo after`] });
    const marks = tempTree();
    const id = await createRun(marks, how === 'deadline' ? { budget: { max_duration_seconds: 2 } } : {});
    const pidFile = join(marks, 'pid');
    await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', (there) => there, 30_000);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    if (how === 'cancel') {
      expect((await api(server, `/agent/runs/${id}/cancel`, { method: 'POST' })).status).toBeLessThan(300);
      expect((await ended(server, id, 30_000)).state).toBe('CANCELLED');
    } else {
      const run = await ended(server, id, 30_000);
      expect(run.state, JSON.stringify(run.status_message)).toBe('BLOCKED');
      // Its entrypoint saw it end and reported what it said then.
      expect(await outputOf(server, id)).toContain('stopping');
    }
    await eventually(() => existsSync(join(marks, 'stopping')), (stopped) => stopped, 15_000);
    await eventually(() => processAlive(pid), (alive) => !alive, 15_000);
  });
});
