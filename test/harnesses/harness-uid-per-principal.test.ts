import { chmodSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, type RunItem } from '@agent-runs/core';
import { startAnthropicServer, DEFAULT_SCRIPT, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { harnessCli, startHarnessServer, type HarnessTestServer } from './harness-test-server.js';
import { startGeminiServer } from './gemini-script-server.js';
import { startOpenAiServer } from './openai-script-server.js';

/**
 * Issue 20.1 for harness runs without the sandbox: on a root server with --agent-uid-range,
 * Claude Code runs as its principal's own uid, so Bob's agent (doing what its prompt says,
 * here its attached probe.sh run by the Bash tool) cannot read or write Alice's run.
 */
const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const KEY = 'sk-ant-uid-test-0123456789';
const TOKEN = 'ghp_alices_mcp_token_only';
const claude = { type: 'claude', model_id: 'claude-sonnet-4-5' } as const;

let model: ScriptedModelServer;
let t: HarnessTestServer;
let alice: AgentRunsClient;
let bob: AgentRunsClient;

describe.runIf(process.platform === 'linux' && process.getuid?.() === 0)('Claude Code of two principals on a root server with the sandbox off and --agent-uid-range', () => {
  beforeAll(async () => {
    model = await startAnthropicServer({ ...DEFAULT_SCRIPT, command: 'sh "$AGENT_RUNS_ATTACHMENTS_DIR/probe.sh" > probe.txt 2>&1; cat probe.txt' });
    t = await startHarnessServer(
      { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] } },
      { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url },
      {
        sandbox: 'off',
        agentUidRange: '61000-61999',
        apiKeys: [
          { key: ALICE, principal: 'alice' },
          { key: BOB, principal: 'bob' },
        ],
      },
      { environments: { setup: { setup_commands: ['id -u > setup-uid.txt'] } } },
    );
    // The agents' uids pass through the test's own temporary directory to the work root, as they would to a deployment's.
    chmodSync(dirname(t.workDir), 0o711);
    alice = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: ALICE, maxRetries: 0 });
    bob = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: BOB, maxRetries: 0 });
  }, 60_000);
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await t?.close();
    await model?.close();
  });

  /** A Claude run of `client`'s whose Bash tool runs `probe`; the run and what the probe printed. */
  async function probeRun(client: AgentRunsClient, probe: string, config: Record<string, unknown> = {}): Promise<{ run: RunItem; printed: string }> {
    const created = await client.runs.create({
      prompt: 'Write hello.txt, then run the command.',
      config: { harness: claude, ...config },
      attachments: [{ file_name: 'probe.sh', mime_type: 'text/x-sh', data: Buffer.from(probe).toString('base64') }],
    });
    const run = await client.runs.wait(created.run_id, { timeout: 90_000, pollInterval: 100 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    return { run, printed: readFileSync(join(t.workDir, run.run_id, 'probe.txt'), 'utf8') };
  }

  it("runs each principal's harness as a uid of their own, its setup too; the other's agent cannot read or write the run", async () => {
    const first = await probeRun(alice, 'echo "setup=$(cat setup-uid.txt) agent=$(id -u)"; touch "$HOME/.probe" && echo home-writable', {
      environment_id: 'setup',
      mcp_servers: { gh: { command: 'true', env: { GITHUB_TOKEN: TOKEN } } },
    });
    const aliceUid = Number(/agent=(\d+)/.exec(first.printed)?.[1]);
    expect(aliceUid).toBeGreaterThanOrEqual(61000);
    expect(aliceUid).toBeLessThanOrEqual(61999);
    // The environment's setup ran as the uid the agent then ran as, so the agent owns what it made.
    expect(first.printed).toContain(`setup=${aliceUid} agent=${aliceUid}`);
    // Its HOME is its own to write (the server's is not), so the tools it runs can keep their files.
    expect(first.printed).toContain('home-writable');
    const aliceDir = join(t.workDir, first.run.run_id);
    const aliceState = join(t.workDir, '.agent-runs', first.run.run_id);
    const mcp = join(aliceState, 'harness', 'claude', 'mcp.json');
    expect(statSync(aliceDir).uid).toBe(aliceUid);
    expect(statSync(aliceDir).mode & 0o777).toBe(0o700);
    expect(statSync(mcp).uid).toBe(aliceUid);
    expect(statSync(mcp).mode & 0o777).toBe(0o600);

    // Bob's agent goes after Alice's MCP token, attachment, prompt and working directory.
    const snoop = await probeRun(
      bob,
      [
        'echo "uid=$(id -u)"',
        `cat ${mcp} && echo READ-MCP`,
        `cat ${join(aliceState, 'attachments', 'probe.sh')} >/dev/null && echo READ-ATTACHMENT`,
        `cat ${join(aliceState, 'executions', '1', 'conversation.jsonl')} && echo READ-PROMPT`,
        `ls ${aliceDir} && echo LISTED-WORKDIR`,
        `echo forged > ${join(aliceDir, 'forged')} && echo WROTE`,
        'echo snoop-done',
      ].join('\n'),
    );
    expect(snoop.printed).toContain('snoop-done');
    const bobUid = Number(/uid=(\d+)/.exec(snoop.printed)?.[1]);
    expect(bobUid).toBeGreaterThanOrEqual(61000);
    expect(bobUid).not.toBe(aliceUid);
    for (const leak of [TOKEN, 'READ-MCP', 'READ-ATTACHMENT', 'READ-PROMPT', 'LISTED-WORKDIR', 'WROTE']) expect(snoop.printed).not.toContain(leak);
    expect((await bob.runs.output(snoop.run.run_id)).text).not.toContain(TOKEN);

    // Alice's follow-up resumes her session as her uid: the earlier turns reach the model.
    const before = model.agentTurns().length;
    await alice.runs.followup(first.run.run_id, { message: 'Once more.' });
    const after = await alice.runs.wait(first.run.run_id, { timeout: 90_000, pollInterval: 100 });
    expect(after.state, JSON.stringify(after.status_message)).toBe('SUCCEEDED');
    expect(JSON.stringify(model.agentTurns()[before]!.body['messages'])).toContain('Write hello.txt, then run the command.');
  }, 240_000);
});

describe.runIf(process.platform === 'linux' && process.getuid?.() === 0)('Codex and Gemini CLI bare as their principal\'s uid', () => {
  const harnesses = [
    { type: 'codex', model_id: 'gpt-5.5', start: startOpenAiServer, env: (url: string) => ({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${url}/v1` }) },
    { type: 'gemini', model_id: 'gemini-2.5-flash', start: startGeminiServer, env: (url: string) => ({ GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: url }) },
  ] as const;
  it.each(harnesses)('$type writes its file and runs its command as a uid of the range', async ({ type, model_id, start, env }) => {
    const scripted = await start();
    const variables = env(scripted.url);
    const s = await startHarnessServer(
      { [type]: { command: harnessCli(type), env: Object.keys(variables) } },
      variables,
      { sandbox: 'off', agentUidRange: '61000-61999', apiKeys: [{ key: ALICE, principal: 'alice' }] },
    );
    chmodSync(dirname(s.workDir), 0o711);
    const client = new AgentRunsClient({ baseURL: s.server.baseURL, apiKey: ALICE, maxRetries: 0 });
    try {
      const created = await client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: { type, model_id } } });
      const run = await client.runs.wait(created.run_id, { timeout: 90_000, pollInterval: 100 });
      expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
      const dir = join(s.workDir, run.run_id);
      const uid = statSync(dir).uid;
      expect(uid).toBeGreaterThanOrEqual(61000);
      expect(uid).toBeLessThanOrEqual(61999);
      expect(statSync(join(dir, 'ran.txt')).uid).toBe(uid);
      expect(readFileSync(join(dir, 'ran.txt'), 'utf8')).toBe('shell-ran\n');
    } finally {
      await client.close();
      await s.close();
      await scripted.close();
    }
  }, 120_000);
});
