import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPT, startAnthropicServer, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { harnessCli, startHarnessServer, type HarnessTestServer } from './harness-test-server.js';

// A Claude Code run whose agent, through its shell tool, starts a child run (itself a Claude
// Code run) with the variables every execution gets: AGENT_RUNS_API_URL, AGENT_RUNS_RUN_TOKEN.
const claude = { type: 'claude', model_id: 'claude-sonnet-4-5' } as const;
const CHILD_BODY = JSON.stringify({ prompt: 'Write hello.txt, then run the command.', config: { harness: claude } });
const START_CHILD = [
  `curl -s -H "Authorization: Bearer $AGENT_RUNS_RUN_TOKEN" -H 'content-type: application/json' -d '${CHILD_BODY}' "$AGENT_RUNS_API_URL/api/v1/agent/runs"`,
  'echo',
  'echo "token: $AGENT_RUNS_RUN_TOKEN"',
].join('; ');

let model: ScriptedModelServer;
let t: HarnessTestServer;
beforeAll(async () => {
  model = await startAnthropicServer({ ...DEFAULT_SCRIPT, commandOn: { 'START-CHILD': START_CHILD } });
  t = await startHarnessServer({ claude: { command: harnessCli('claude'), env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] } }, { ANTHROPIC_API_KEY: 'sk-ant-test-run-token-0123456789', ANTHROPIC_BASE_URL: model.url });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
});

describe('a Claude Code run', () => {
  it('starts a child run with its run token, which hangs under it, and never shows the token', async () => {
    const created = await t.client.runs.create({ prompt: 'START-CHILD: start one child run.', config: { harness: claude } });
    const parent = await t.client.runs.wait(created.run_id, { timeout: 60_000 });
    expect(parent.state, JSON.stringify(parent.status_message)).toBe('SUCCEEDED');

    const { runs } = await t.client.runs.list({ ancestor_run_id: parent.run_id });
    const children = runs.filter((run) => run.run_id !== parent.run_id);
    expect(children).toHaveLength(1);
    expect(children[0]!.parent_run_id).toBe(parent.run_id);
    const child = await t.client.runs.wait(children[0]!.run_id, { timeout: 60_000 });
    expect(child.state, JSON.stringify(child.status_message)).toBe('SUCCEEDED');

    const { text: output } = await t.client.runs.output(parent.run_id);
    expect(output).toContain(children[0]!.run_id);
    expect(output).toContain('token: ***');
    expect(output).not.toMatch(/art_[\w-]{20}/);
  }, 120_000);

  it('gets this server’s MCP server bound to its run token: its tools are offered to the model', async () => {
    const before = model.agentTurns().length;
    const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: claude } });
    const run = await t.client.runs.wait(created.run_id, { timeout: 60_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const turns = JSON.stringify(model.agentTurns().slice(before).map((r) => r.body));
    expect(turns).toContain('mcp__agent-runs__create_run');
    expect(turns).toContain('mcp__agent-runs__wait_for_run');
    expect(turns).not.toMatch(/art_[\w-]{20}/);
  }, 120_000);
});
