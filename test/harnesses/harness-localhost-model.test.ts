import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicServer, DEFAULT_SCRIPT, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { harnessCli, startHarnessServer, type HarnessTestServer } from './harness-test-server.js';

/**
 * Issue 45, item 12: Claude Code whose model URL names `localhost` (a gateway on the
 * server's machine), sandboxed under `--network none`. The filtering proxy refused the name
 * as resolving to loopback, so the CLI never reached its model and the run failed.
 */
let model: ScriptedModelServer;
let t: HarnessTestServer;
beforeAll(async () => {
  model = await startAnthropicServer(DEFAULT_SCRIPT);
  const url = model.url.replace('127.0.0.1', 'localhost');
  t = await startHarnessServer(
    { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] } },
    { ANTHROPIC_API_KEY: 'sk-ant-localhost-test-0123456789', ANTHROPIC_BASE_URL: url },
    { sandbox: 'on', network: 'none' },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
});

describe('Claude Code with its model on localhost, sandboxed under --network none (issue 45.12)', () => {
  it('reaches its model through the proxy and the run succeeds', async () => {
    const created = await t.client.runs.create({ prompt: 'Write hello.txt.', config: { harness: { type: 'claude', model_id: 'claude-sonnet-4-5' } } });
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(model.agentTurns().length).toBeGreaterThan(0);
  }, 120_000);
});
