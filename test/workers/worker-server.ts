import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRunsClient, type ConnectedWorker } from '@agent-runs/core';
import { startServer, type ServerOptions } from '@agent-runs/server';
import { tempTree, writeServerConfig } from '../../packages/server/test/support/server-config.js';

export const API_KEY = 'workers-test-key-0123456789';
/** The worker token the server's configuration file binds to the worker host `gpu`. */
export const GPU_TOKEN = 'worker-token-gpu-0123456789abcdef';

/** Hostile text a worker may announce as its version: markup, a terminal escape, a bell. */
export const HOSTILE_VERSION = '<img src=x onerror=alert(1)>\u001b]0;pwned\u0007';

/**
 * A local server whose configuration file declares one worker token, bound to `gpu`, on a
 * free loopback port; runs that name no worker run on its simulated agent.
 */
export async function startWorkerServer(options: ServerOptions = {}) {
  const dir = tempTree({}, 'agent-runs-workers-');
  // The token is read from a file, as a deployment keeps it: never written in the configuration.
  writeFileSync(join(dir, 'gpu.token'), `${GPU_TOKEN}\n`, { mode: 0o600 });
  const configFile = writeServerConfig({ workers: { gpu: { token: { from_file: join(dir, 'gpu.token') }, worker_hosts: ['gpu'] } } }, dir);
  const server = await startServer({
    port: 0,
    storage: 'memory',
    quiet: true,
    simulatedDurationMs: 100,
    apiKeys: [{ key: API_KEY, principal: 'tester' }],
    configFile,
    ...options,
  });
  const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: API_KEY, maxRetries: 0 });
  return {
    server,
    client,
    env: { AGENT_RUNS_API_KEY: API_KEY, AGENT_RUNS_BASE_URL: server.baseURL },
    /** Connects a "worker" as a worker process does: `POST /api/v1/workers/connect` under its token. */
    async connectWorker(announce: Partial<WorkerAnnouncement> = {}, token = GPU_TOKEN): Promise<Response> {
      const body: WorkerAnnouncement = {
        worker_host: 'gpu',
        instance_id: 'gpu-box-1',
        version: '1.2.3',
        capacity: 4,
        harnesses: ['claude'],
        environments: [],
        ...announce,
      };
      return fetch(`${server.url}/api/v1/workers/connect`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}

type WorkerAnnouncement = Pick<ConnectedWorker, 'worker_host' | 'instance_id' | 'version' | 'capacity' | 'harnesses' | 'environments'>;
