import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/config-file.js';
import { writeServerConfig } from '../support/server-config.js';

const TOKEN = 'a-worker-token-of-32-characters!!';
const env = { WORKER_TOKEN: TOKEN };
const load = (config: Record<string, unknown>) => () => loadConfigFile(writeServerConfig(config), env);

describe('the workers: section of the configuration file', () => {
  it('reads each token by reference, with the worker ids it may serve, and environments naming one', () => {
    const config = loadConfigFile(
      writeServerConfig({
        secrets: { POOL_TOKEN: { from_env: 'WORKER_TOKEN' } },
        workers: { pool: { token: 'POOL_TOKEN', worker_hosts: ['gpu', 'gpu', 'cpu'] }, other: { token: { from_env: 'WORKER_TOKEN' }, worker_hosts: ['arm'] } },
        environments: { web: { worker_host: 'gpu' } },
      }),
      env,
    );
    expect(config.workerTokens).toEqual([
      { name: 'pool', token: TOKEN, workerHosts: ['gpu', 'cpu'] },
      { name: 'other', token: TOKEN, workerHosts: ['arm'] },
    ]);
    expect(config.environments[0]!.workerHost).toBe('gpu');
  });

  it.each([
    ['an undeclared secret', { workers: { pool: { token: 'NOPE', worker_hosts: ['gpu'] } } }, /workers\.pool\.token: "NOPE" is not declared/],
    ['a token in the file', { workers: { pool: { token: TOKEN, worker_hosts: ['gpu'] } } }, /workers\.pool\.token: must name a secret/],
    ['no worker ids', { workers: { pool: { token: { from_env: 'WORKER_TOKEN' }, worker_hosts: [] } } }, /workers\.pool\.worker_hosts: list the worker ids/],
    ['a bad worker id', { workers: { pool: { token: { from_env: 'WORKER_TOKEN' }, worker_hosts: ['a b'] } } }, /workers\.pool\.worker_hosts\[0\]: a worker id is/],
    ['a short token', { workers: { pool: { token: { from_env: 'SHORT' }, worker_hosts: ['gpu'] } } }, /workers\.pool\.token: the worker token is shorter than 16/],
    ['an environment on an unknown worker', { environments: { web: { worker_host: 'gpu' } } }, /environments\.web\.worker_host: "gpu" is no worker id/],
  ])('names the key of %s', (_what, config, message) => {
    expect(() => loadConfigFile(writeServerConfig(config), { ...env, SHORT: 'short' })).toThrow(message);
  });

  it('keeps load() usable for the valid case', () => {
    expect(load({ workers: { pool: { token: { from_env: 'WORKER_TOKEN' }, worker_hosts: ['gpu'] } } })).not.toThrow();
  });
});
