import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPT, startAnthropicServer, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';
import { harnessCli, startHarnessServer, type HarnessTestServer } from './harness-test-server.js';

const KEY = 'sk-ant-test-budget-0123456789';
const claude = { type: 'claude', model_id: 'claude-sonnet-4-5' } as const;
/**
 * Each agent turn of the script costs this at Sonnet's prices (TURN_USAGE), so the run's
 * spend climbs by it per turn; while a turn streams, Claude Code reports its usage with one
 * output token (MIN_TURN_USD), the rest with the turn's end.
 */
const TURN_USD = 0.00186525 / 3;
const MIN_TURN_USD = TURN_USD - (19 * 15) / 1e6;

let model: ScriptedModelServer;
let proxy: RecordingProxy;
let t: HarnessTestServer;
beforeAll(async () => {
  // The second turn's command takes seconds: were the agent not stopped at its usage, the third turn's request would come meanwhile.
  model = await startAnthropicServer({ ...DEFAULT_SCRIPT, commandOn: { 'SLOW-STEP': 'sleep 4; echo listed' } });
  proxy = await startRecordingProxy();
  t = await startHarnessServer(
    { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', ...Object.keys(proxy.env)] } },
    { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url, ...proxy.env },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
  await proxy?.close();
});

describe('a Claude Code run under a cost cap', () => {
  it('ends BLOCKED at the cap before the next turn is asked for, the spend in its status message; a follow-up with a raised cap finishes it', async () => {
    // Above anything one turn reports, below what two do: reached by the second turn's usage.
    const cap = 0.00064;
    expect(cap).toBeGreaterThan(TURN_USD);
    expect(cap).toBeLessThan(2 * MIN_TURN_USD);
    const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command. SLOW-STEP', config: { harness: claude, budget: { max_cost_usd: cap } } });
    const blocked = await t.client.runs.wait(created.run_id, { timeout: 60_000 });
    expect(blocked.state, JSON.stringify(blocked.status_message)).toBe('BLOCKED');
    expect(blocked.status_message?.error_code).toBe('budget_exceeded');
    // The spend when the usage update reached the cap (a turn's usage is reported as its message streams in).
    const spent = /^stopped at the budget: \$([\d.]+) spent of max_cost_usd 0\.00064\. /.exec(blocked.status_message?.message ?? '');
    expect(spent, blocked.status_message?.message).not.toBeNull();
    expect(Number(spent![1])).toBeGreaterThanOrEqual(cap);
    expect(Number(spent![1])).toBeLessThanOrEqual(2 * TURN_USD + 1e-6);
    // Two turns asked for and answered; the third never.
    const turnsAtBlock = model.agentTurns().length;
    expect(turnsAtBlock).toBe(2);
    expect(blocked.request_usage?.inference_cost_usd).toBeGreaterThanOrEqual(cap);
    expect(blocked.request_usage?.inference_cost_usd).toBeLessThanOrEqual(2 * TURN_USD + 1e-6);
    expect(blocked.agent_config?.budget).toEqual({ max_cost_usd: cap });

    // A follow-up that does not raise the cap is blocked again at once: no turn is asked for.
    await t.client.runs.followup(created.run_id, { message: 'Go on.' });
    const still = await t.client.runs.wait(created.run_id, { timeout: 30_000 });
    expect(still.state).toBe('BLOCKED');
    expect(model.agentTurns().length).toBe(turnsAtBlock);

    // A raised cap continues the session where it stopped, and the run finishes.
    await t.client.runs.followup(created.run_id, { message: 'Go on and finish.', budget: { max_cost_usd: 0.05 } });
    const finished = await t.client.runs.wait(created.run_id, { timeout: 60_000 });
    expect(finished.state, JSON.stringify(finished.status_message)).toBe('SUCCEEDED');
    expect(finished.agent_config?.budget).toEqual({ max_cost_usd: 0.05 });
    const resumed = model.agentTurns()[turnsAtBlock]!;
    expect(JSON.stringify(resumed.body['messages'])).toContain('Write hello.txt, then run the command.');
    expect(finished.request_usage?.inference_cost_usd).toBeGreaterThan(2 * TURN_USD);
  }, 120_000);

  it('a token cap stops it the same way, naming the tokens used', async () => {
    // One turn reports 116 to 135 tokens (TURN_USAGE, its output counted as it streams), two at least 232.
    const before = model.agentTurns().length;
    const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command. SLOW-STEP', config: { harness: claude, budget: { max_tokens: 200 } } });
    const blocked = await t.client.runs.wait(created.run_id, { timeout: 60_000 });
    expect(blocked.state, JSON.stringify(blocked.status_message)).toBe('BLOCKED');
    expect(blocked.status_message?.message).toMatch(/^stopped at the budget: (23[2-9]|2[4-6]\d|270) tokens used of max_tokens 200\. /);
    expect(model.agentTurns().length - before).toBe(2);
  }, 90_000);
});
