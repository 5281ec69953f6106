import { chmodSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicServer, DEFAULT_SCRIPT, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { withMarker } from '../../packages/server/test/support/agent-group.js';
import { harnessCli, startHarnessServer, type HarnessTestServer } from './harness-test-server.js';

/**
 * Issue 45, item 13 for harness runs: Claude Code run bare (`--sandbox off`), whose Bash
 * tool starts a helper in a session of its own (setsid). Only the CLI's process group was
 * ended, so the helper ran on after its run; bare, the CLI's tree is tracked in /proc, as a
 * command agent's is. The helper carries a marker in its command line so the test finds it.
 */
const marker = `agent-runs-harness-setsid-${process.pid}`;
let model: ScriptedModelServer;
let t: HarnessTestServer;
beforeAll(async () => {
  model = await startAnthropicServer({ ...DEFAULT_SCRIPT, command: `setsid sh -c 'while :; do sleep 0.1; done' ${marker} </dev/null >/dev/null 2>&1 & sleep 0.6; echo started` });
  t = await startHarnessServer(
    { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] } },
    { ANTHROPIC_API_KEY: 'sk-ant-bare-setsid-0123456789', ANTHROPIC_BASE_URL: model.url },
    { sandbox: 'off' },
  );
  // A root server's agent user passes through the test's own temporary directory to the work root, as it would to a deployment's.
  chmodSync(dirname(t.workDir), 0o711);
}, 60_000);
afterEach(() => {
  for (const pid of withMarker(marker)) process.kill(pid, 'SIGKILL');
});
afterAll(async () => {
  await t?.close();
  await model?.close();
});

describe.runIf(process.platform === 'linux')('a helper a bare harness run starts with setsid (issue 45.13)', () => {
  it('does not outlive its run', async () => {
    const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: { type: 'claude', model_id: 'claude-sonnet-4-5' } } });
    await expect.poll(() => withMarker(marker).length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    await expect.poll(() => withMarker(marker), { timeout: 5000, interval: 100 }).toEqual([]);
  }, 120_000);
});
