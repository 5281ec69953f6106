import type { ExpectStatic } from 'vitest';
import { api, TESTER_KEY } from './server-api.js';
import { writeServerConfig } from './server-config.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

/**
 * A server process (in memory, under TESTER_KEY) whose worker pool takes `token` for
 * `workerHost`, pushed onto `processes` for the test to end. `sections`: more of its
 * configuration (the environments its runs name); `args`: more flags (`--lease`).
 */
export async function startPoolServer(
  processes: { child: unknown; exited: Promise<unknown> }[],
  { token, workerHost, sections = {}, args = [] }: { token: string; workerHost: string; sections?: Record<string, unknown> | undefined; args?: string[] },
): Promise<ServerProcess> {
  const config = writeServerConfig({ workers: { pool: { token: { from_env: 'AGENT_RUNS_TEST_WORKER_TOKEN' }, worker_hosts: [workerHost] } }, ...sections });
  const server = await startServerProcess(['--memory', '--api-key', `tester=${TESTER_KEY}`, '--config', config, ...args], { ...process.env, AGENT_RUNS_TEST_WORKER_TOKEN: token });
  processes.push(server);
  return server;
}

/** Starts a run on `workerHost` (`config`: more of its configuration), expecting it accepted; its id. */
export async function createPoolRun(expect: ExpectStatic, server: ServerProcess, workerHost: string, prompt: string, config: Record<string, unknown> = {}): Promise<string> {
  const created = await api(server, '/agent/run', { method: 'POST', body: { prompt, config: { worker_host: workerHost, ...config } } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.run_id as string;
}
