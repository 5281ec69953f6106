import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/config-file.js';
import { NamedSecrets } from '../../src/domain/named-secrets.js';
import type { ExecutionInput } from '../../src/executors/execution-input.js';
import { HarnessExecutor } from '../../src/executors/harness/harness-executor.js';
import { HarnessSetup } from '../../src/executors/harness/harness-setup.js';
import type { RunRecord } from '../../src/store/runs/run-record.js';
import { newRun } from '../support/new-run.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const ALICE = 'harness-secrets-alice-0123456789';
const BOB = 'harness-secrets-bob-0123456789ab';
const VALUES = {
  AGENT_RUNS_TEST_ALICE_KEY: 'sk-alice-own-key-5e1f',
  AGENT_RUNS_TEST_BOB_KEY: 'sk-bob-own-key-7a2c',
  AGENT_RUNS_TEST_TEAM_TOKEN: 'team-token-3b9d',
  AGENT_RUNS_TEST_SIGNING: 'whsec_c2lnbmluZy1zZWNyZXQtb2YtYm9iLXdlYmhvb2s=',
};
let t: TestServer;

beforeAll(async () => {
  Object.assign(process.env, VALUES);
  // A claude CLI the server finds: the harness can start, so only the key decides.
  const dir = tempTree({ claude: '#!/bin/sh\nexit 0\n' });
  chmodSync(join(dir, 'claude'), 0o755);
  t = await startTestServer({
    apiKeys: [
      { key: ALICE, principal: 'alice' },
      { key: BOB, principal: 'bob' },
    ],
    configFile: writeServerConfig(
      {
        harnesses: { claude: { command: './claude' } },
        secrets: {
          ALICE_KEY: { from_env: 'AGENT_RUNS_TEST_ALICE_KEY', owner: 'alice' },
          BOB_KEY: { from_env: 'AGENT_RUNS_TEST_BOB_KEY', owner: 'bob' },
          TEAM_TOKEN: { from_env: 'AGENT_RUNS_TEST_TEAM_TOKEN' },
          // A webhook's signing secret, declared for no run.
          SIGNING: { from_env: 'AGENT_RUNS_TEST_SIGNING' },
        },
        environments: { team: { secrets: ['TEAM_TOKEN'] }, plain: {} },
      },
      dir,
    ),
  });
});
afterAll(async () => {
  await t?.close();
  for (const name of Object.keys(VALUES)) delete process.env[name];
});

/** Creates a claude run naming `secret` as its key, as `key`'s principal. */
const create = (key: string, secret: string, environment?: string) =>
  t.raw('/api/v1/agent/run', {
    key,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      prompt: 'hello',
      config: { harness: { type: 'claude' }, harness_auth_secrets: { claude_auth_secret_name: secret }, ...(environment ? { environment_id: environment } : {}) },
    }),
  });

const refusal = (name: string) => ({
  path: 'agent_config.harness_auth_secrets.claude_auth_secret_name',
  message: `this server cannot run the claude harness: "${name}" is no secret this run may use: name one its environment lists (environments.<id>.secrets) or one declared for its principal (secrets.<NAME>.owner in the server's configuration file).`,
});

const issues = (body: { issues?: { path: string; message: string }[] }) => body.issues?.map(({ path, message }) => ({ path, message }));

describe("a run's harness key named by harness_auth_secrets", () => {
  it('may be a secret declared for its principal, or one its environment lists', async () => {
    expect((await create(ALICE, 'ALICE_KEY')).status).toBe(200);
    expect((await create(BOB, 'BOB_KEY', 'plain')).status).toBe(200);
    expect((await create(BOB, 'TEAM_TOKEN', 'team')).status).toBe(200);
  });

  it("is refused when it is another principal's, another environment's, a webhook's signing secret, or none, with one answer that names no other secret", async () => {
    const cases: [string, string, string | undefined][] = [
      [ALICE, 'BOB_KEY', undefined],
      [BOB, 'ALICE_KEY', 'team'],
      [ALICE, 'TEAM_TOKEN', undefined],
      [ALICE, 'TEAM_TOKEN', 'plain'],
      [ALICE, 'SIGNING', undefined],
      [BOB, 'SIGNING', 'team'],
      [ALICE, 'NO_SUCH_SECRET', undefined],
    ];
    for (const [key, name, environment] of cases) {
      const res = await create(key, name, environment);
      expect(res.status, `${name} in ${environment ?? 'no environment'}`).toBe(400);
      expect(issues(res.body)).toEqual([refusal(name)]);
      for (const other of ['ALICE_KEY', 'BOB_KEY', 'SIGNING', 'TEAM_TOKEN'].filter((n) => n !== name)) expect(JSON.stringify(res.body)).not.toContain(other);
    }
  });

  it('is declared for a principal the server has a key for, or the server does not start', async () => {
    const file = writeServerConfig({ secrets: { KEY: { from_env: 'AGENT_RUNS_TEST_ALICE_KEY', owner: 'carol' } } });
    expect(loadConfigFile(file).secrets.owners()).toEqual([['KEY', 'carol']]);
    await expect(startTestServer({ apiKeys: [{ key: ALICE, principal: 'alice' }], configFile: file })).rejects.toThrow(
      'Configuration file: secrets.KEY.owner: "carol" is not a principal of this server\'s API keys (principals: alice).',
    );
  });

  it('is checked again when the harness starts: a stored run naming a secret it may not use gets no key', async () => {
    const dir = tempTree({ claude: '#!/bin/sh\nexit 0\n' });
    chmodSync(join(dir, 'claude'), 0o755);
    const secrets = new NamedSecrets(new Map([['BOB_KEY', 'sk-bob-stored-run-key']]), new Map([['BOB_KEY', 'bob']]));
    const setup = new HarnessSetup({ settings: { claude: { command: join(dir, 'claude'), args: [], env: [], models: [] } } }, secrets, [], {});
    const executor = new HarnessExecutor('claude', { workRoot: dir, timeoutMs: 30_000, setup });
    const run = newRun('stored-run', {
      creator: { uid: 'alice' },
      agentConfig: { harness: { type: 'claude' }, harness_auth_secrets: { claude_auth_secret_name: 'BOB_KEY' } },
    }) as unknown as RunRecord;
    const input: ExecutionInput = { number: 1, followups: [], conversation: [], attachments: [], usedBytes: 0, limits: { maxFileBytes: 1 << 20, maxRunBytes: 1 << 20, maxArtifactsPerExecution: 10 } };
    const outcome = await executor.start({ run, input, onOutput: () => {} }).done;
    expect(outcome.state).toBe('FAILED');
    expect(outcome.statusMessage?.message).toBe(
      'The claude harness could not start: "BOB_KEY" is no secret this run may use: name one its environment lists (environments.<id>.secrets) or one declared for its principal (secrets.<NAME>.owner in the server\'s configuration file).',
    );
  });
});
