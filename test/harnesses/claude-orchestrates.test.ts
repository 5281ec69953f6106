import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { runCli } from '../../packages/cli/test/support/cli-process.js';
import { signInByHttp } from '../../packages/server/test/dashboard/dashboard-support.js';
import { DEFAULT_SCRIPT, startAnthropicServer, type ScriptedModelServer, type ToolScript } from '../support/model-servers/anthropic-messages-server.js';
import { harnessCli, startHarnessServer, type HarnessTestServer } from './harness-test-server.js';

// The headline: a Claude Code run that, through this server's MCP tools (bound to its
// run token), starts two children (each a Claude Code run), waits for both and reports them.
const claude = { type: 'claude', model_id: 'claude-sonnet-4-5' } as const;
const CHILD_PROMPT = 'Write hello.txt, then run the command.';
const KEY = 'orchestrate-key-0123456789abcdef';

// Claude Code hands the model a tool's structured content (JSON) where it has one, else its text.
const startedId = (result: string | undefined) => /"run_id":"([^"]+)"|Started run (\S+) /.exec(result ?? '')?.slice(1).find(Boolean) ?? 'missing';
const endState = (result: string | undefined) => /\b(SUCCEEDED|FAILED|ERROR|CANCELLED|BLOCKED)\b/.exec(result ?? '')?.[1] ?? 'unknown';
const ORCHESTRATE: ToolScript = {
  calls: [
    { name: 'mcp__agent-runs__create_run', input: () => ({ prompt: CHILD_PROMPT, title: 'first child', harness: 'claude', model: claude.model_id }) },
    { name: 'mcp__agent-runs__create_run', input: () => ({ prompt: CHILD_PROMPT, title: 'second child', harness: 'claude', model: claude.model_id }) },
    { name: 'mcp__agent-runs__wait_for_run', input: (results) => ({ run_id: startedId(results[0]), timeout: '90s' }) },
    { name: 'mcp__agent-runs__wait_for_run', input: (results) => ({ run_id: startedId(results[1]), timeout: '90s' }) },
  ],
  answer: (results) => `Children: ${startedId(results[0])} ${endState(results[2])}, ${startedId(results[1])} ${endState(results[3])}.`,
};

let model: ScriptedModelServer;
let t: HarnessTestServer;
beforeAll(async () => {
  model = await startAnthropicServer({ ...DEFAULT_SCRIPT, toolsOn: { 'ORCHESTRATE-TWO': ORCHESTRATE } });
  t = await startHarnessServer(
    { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] } },
    { ANTHROPIC_API_KEY: 'sk-ant-test-orchestrate-0123456789', ANTHROPIC_BASE_URL: model.url },
    // The parent holds a slot while it waits: two more for its children.
    { concurrency: 3, apiKeys: [{ key: KEY, principal: 'alice' }] },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
});

describe('a Claude Code run orchestrating through its MCP tools', () => {
  it('starts two Claude Code children, waits for them and reports them; the tree shows in the API, the CLI and the dashboard', async () => {
    const client = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: KEY });
    const created = await client.runs.create({ prompt: 'ORCHESTRATE-TWO: split the work in two and report.', config: { harness: claude } });
    const parent = await client.runs.wait(created.run_id, { timeout: 120_000 });
    expect(parent.state, JSON.stringify(parent.status_message)).toBe('SUCCEEDED');

    // The API: both children under it, both real harness runs that finished.
    const tree = await client.runs.tree(parent.run_id);
    expect(tree.children).toHaveLength(2);
    const childIds = tree.children.map((c) => c.run.run_id);
    for (const { run: child, children } of tree.children) {
      expect(children).toEqual([]);
      const run = await client.runs.get(child.run_id);
      expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
      expect(run.parent_run_id).toBe(parent.run_id);
      expect(run.status_message?.message).toBe(DEFAULT_SCRIPT.answer);
    }
    const { runs } = await client.runs.list({ ancestor_run_id: parent.run_id });
    expect(runs.map((r) => r.run_id).filter((id) => id !== parent.run_id).sort()).toEqual([...childIds].sort());

    // The agent waited for each child and reported how each ended, in the order it started them.
    const [first, second] = ['first child', 'second child'].map((title) => tree.children.find((c) => c.run.title === title)?.run);
    expect(parent.status_message?.message).toBe(`Children: ${first!.run_id} SUCCEEDED, ${second!.run_id} SUCCEEDED.`);
    // Its tool calls really went through the MCP server: each result names a child.
    const lastTurn = JSON.stringify(model.agentTurns().filter((r) => JSON.stringify(r.body).includes('ORCHESTRATE-TWO')).at(-1)?.body);
    for (const id of childIds) expect(lastTurn).toContain(id);
    expect(lastTurn).not.toMatch(/art_[\w-]{20}/);

    // The CLI, as a child process.
    const cli = await runCli(['--base-url', t.server.baseURL, 'tree', parent.run_id, '--json'], { env: { AGENT_RUNS_API_KEY: KEY } });
    expect(cli.code, cli.stderr).toBe(0);
    const drawn = JSON.parse(cli.stdout) as { run_id: string; children: { run_id: string; state: string; children: unknown[] }[] };
    expect(drawn.run_id).toBe(parent.run_id);
    expect(drawn.children.map((c) => c.run_id).sort()).toEqual([...childIds].sort());
    expect(drawn.children.every((c) => c.state === 'SUCCEEDED' && c.children.length === 0)).toBe(true);

    // The dashboard's run page links both children.
    const { cookie } = await signInByHttp(t.server.url, KEY);
    const page = await (await fetch(`${t.server.url}/runs/${parent.run_id}`, { headers: { cookie } })).text();
    const section = /<section aria-labelledby="h-children"[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    for (const id of childIds) expect(section).toContain(`<a href="/runs/${id}">`);
  }, 180_000);
});
