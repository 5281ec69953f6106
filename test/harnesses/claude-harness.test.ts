import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError } from '@agent-runs/core';
import { main } from '@agent-runs/cli';
import { capturingIo } from '../../packages/cli/test/support/in-process-io.js';
import { serverInputs } from '../../packages/action/test/support/action-server.js';
import { runStep } from '../../packages/action/test/support/runner.js';
import { binEnv, connectStdio } from '../../packages/mcp/test/support/mcp-harness.js';
import { DEFAULT_SCRIPT, startAnthropicServer, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';
import { MCP_FIXTURE } from './mcp-fixture.js';
import { changesPatch, GIT_REPO_ENVIRONMENT, harnessCli, processesIn, startHarnessServer, transcriptUrl, until, type HarnessTestServer } from './harness-test-server.js';

const KEY = 'sk-ant-test-0123456789-very-secret';
const claude = { type: 'claude', model_id: 'claude-sonnet-4-5' } as const;


let model: ScriptedModelServer;
let proxy: RecordingProxy;
let t: HarnessTestServer;
beforeAll(async () => {
  // An agent told to print the key prints it as is and in base64, alone and inside a longer encoded text.
  model = await startAnthropicServer({ ...DEFAULT_SCRIPT, commandOn: { 'PRINT-KEY': 'echo "$ANTHROPIC_API_KEY"; printf %s "$ANTHROPIC_API_KEY" | base64 -w0; echo; printf "k=%s;" "$ANTHROPIC_API_KEY" | base64 -w0; echo' } });
  // Anything Claude Code sends past its loopback model server (telemetry, updates) reaches this proxy instead.
  proxy = await startRecordingProxy();
  t = await startHarnessServer(
    { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', ...Object.keys(proxy.env)] } },
    { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url, ...proxy.env },
    {},
    // A working directory that is a git repository, for the changes.patch the agent leaves.
    { environments: { repo: GIT_REPO_ENVIRONMENT } },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
  await proxy?.close();
});

// Each test has runs of its own, and the describes below too: two at a time (vitest's maxConcurrency), as the
// server runs two at once, rather than each Claude Code start-up waiting for the one before it.
describe.concurrent('Claude Code as the run harness, against a scripted Anthropic server', () => {
  it('writes the file, runs the command, streams each step in order, records usage and cost, and a follow-up resumes its session', async () => {
    const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: claude } });
    const seen: string[] = [];
    const usageWhileRunning: number[] = [];
    for await (const event of t.client.runs.events(created.run_id)) {
      if (event.type === 'output') seen.push(event.data.text);
      if (event.type === 'run' && event.data.state === 'INPROGRESS' && event.data.request_usage) usageWhileRunning.push(event.data.request_usage.total_tokens ?? 0);
    }
    const run = await t.client.runs.get(created.run_id);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(run.status_message?.message).toBe(DEFAULT_SCRIPT.answer);

    const dir = join(t.workDir, run.run_id);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(DEFAULT_SCRIPT.content);
    expect(readFileSync(join(dir, 'ran.txt'), 'utf8')).toBe('shell-ran\n');

    // Each step as one readable line, in the order the agent took them.
    const output = seen.join('');
    const order = ['I will write the file first.', 'edit hello.txt', `$ ${DEFAULT_SCRIPT.command}`, '  listed', DEFAULT_SCRIPT.answer].map((line) => output.indexOf(line));
    expect(order.every((i) => i >= 0), output).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    // Three agent turns of 100 input, 20 output, 10 cache-read and 5 cache-write tokens at Sonnet's prices.
    expect(run.request_usage?.total_tokens).toBe(3 * 135);
    expect(run.request_usage?.inference_cost_usd).toBeCloseTo(0.00186525, 8);
    const byModel = run.request_usage?.usage_by_category?.['primary_agent']?.direct_api_inference_usage?.['claude-sonnet-4-5'];
    expect(byModel?.token_count).toEqual({ input: 300, output: 60, input_cache_read: 30, input_cache_write: 15 });
    expect(usageWhileRunning.length).toBeGreaterThan(0);

    // The key reached the model server, and nothing else of the run shows it.
    expect(model.agentTurns().every((r) => r.apiKey === KEY)).toBe(true);
    const transcript = await (await fetch(await transcriptUrl(t.server, run.run_id))).text();
    for (const text of [output, JSON.stringify(run), transcript]) expect(text).not.toContain(KEY);
    // The transcript holds the harness's raw stream, its result line included.
    const harnessLines = transcript.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; line?: string }).filter((l) => l.kind === 'harness');
    expect(harnessLines.some((l) => l.line!.includes('"type":"result"'))).toBe(true);

    // The follow-up resumes the session: its first request carries the earlier turns.
    // (The first that carries the follow-up, this run's alone: the tests beside this one make turns of their own meanwhile.)
    const before = model.agentTurns().length;
    await t.client.runs.followup(run.run_id, { message: 'Now say that again.' });
    const after = await t.client.runs.wait(run.run_id, { timeout: 60_000 });
    expect(after.state).toBe('SUCCEEDED');
    const resumed = model.agentTurns().slice(before).find((r) => JSON.stringify(r.body['messages']).includes('Now say that again.'))!;
    const messages = resumed.body['messages'] as { role: string; content: unknown }[];
    expect(JSON.stringify(messages)).toContain('Write hello.txt, then run the command.');
    expect(JSON.stringify(messages)).toContain('Now say that again.');
    expect(after.request_usage?.total_tokens).toBe(6 * 135);

    // The run's turns are its conversation: the prompt, the agent's answer, the follow-up, the next answer.
    const conversation = await t.client.runs.conversation(run.run_id);
    expect(JSON.stringify(conversation)).not.toContain(KEY);
    const texts = JSON.stringify(conversation);
    const turns = ['Write hello.txt, then run the command.', DEFAULT_SCRIPT.answer, 'Now say that again.'].map((text) => texts.indexOf(text));
    expect(turns.every((i) => i >= 0), texts).toBe(true);
    expect([...turns].sort((a, b) => a - b)).toEqual(turns);
    // Within the first execution's step, the agent's text, each tool call as an action and what it gave back.
    const first = conversation.steps[0]!.messages.flatMap((m) => m.content.map((block) => ({ role: m.role, ...block }) as Record<string, unknown>));
    expect(first.map((b) => b['type'])).toEqual(['text', 'text', 'action', 'action_result', 'action', 'action_result', 'text']);
    expect(first[1]).toMatchObject({ role: 'assistant', text: 'I will write the file first.' });
    expect(first[2]).toMatchObject({ role: 'assistant', name: 'edit', input: { line: 'edit hello.txt' } });
    expect(first[3]).toMatchObject({ role: 'tool', action_id: first[2]!['id'], name: 'edit' });
    expect(first[4]).toMatchObject({ role: 'assistant', name: 'shell', input: { line: `$ ${DEFAULT_SCRIPT.command}` } });
    expect(first[5]).toMatchObject({ role: 'tool', action_id: first[4]!['id'], output: { text: 'listed' } });
    // The answer once: the turn's last text is the run's result.
    expect(first[6]).toMatchObject({ role: 'assistant', text: DEFAULT_SCRIPT.answer });

    // Telemetry, error reports and update checks are off: nothing but the loopback model server was asked.
    expect(proxy.seen).toEqual([]);
  }, 120_000);

  it("the run's MCP servers reach Claude Code, which starts them with their variables and offers their tools to the model, the token in no output", async () => {
    const token = 'tok-claude-mcp-0123456789';
    const before = model.agentTurns().length;
    const created = await t.client.runs.create({
      prompt: 'Write hello.txt, then run the command.',
      // Given inline, and writing into its working directory (the run's): the sandboxed agent sees no test files.
      config: { harness: claude, mcp_servers: { tools: { command: process.execPath, args: ['-e', MCP_FIXTURE, 'seen.jsonl'], env: { TOOLS_TOKEN: token } } } },
    });
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const calls = readFileSync(join(t.workDir, run.run_id, 'seen.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { method: string; token: string });
    expect(calls.map((c) => c.method)).toEqual(expect.arrayContaining(['initialize', 'tools/list']));
    expect(calls[0]!.token).toBe(token);
    // Its tools are offered to the model (deferred behind Claude Code's tool search, named in the request).
    expect(model.agentTurns().slice(before).some((r) => JSON.stringify(r.body).includes('mcp__tools__echo'))).toBe(true);
    const transcript = await (await fetch(await transcriptUrl(t.server, run.run_id))).text();
    for (const text of [(await t.client.runs.output(run.run_id)).text, transcript]) expect(text).not.toContain(token);
  }, 120_000);

  it('in a git working directory, what the agent changed is a changes.patch artifact', async () => {
    const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: claude, environment_id: 'repo' } });
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const patch = await changesPatch(t.client, run);
    expect(patch).toBeDefined();
    // The branch the agent worked on is recorded with it.
    expect(patch!.description).toMatch(/\(branch (master|main)\)$/);
    const { text } = patch!;
    expect(text).toContain('+++ b/hello.txt');
    expect(text).toContain('+hello from the scripted model');
    expect(text).toContain('+shell-ran');
  }, 120_000);

  it('the Action hands the changes.patch to a later step as a file path', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'runner-temp-'));
    const step = await runStep({
      inputs: serverInputs(t.server, { prompt: 'Write hello.txt, then run the command.', harness: 'claude', model: 'claude-sonnet-4-5', environment: 'repo', timeout: '2m' }),
      env: { RUNNER_TEMP: temp },
      timeoutMs: 120_000,
    });
    expect(step.code, step.stdout).toBe(0);
    const path = step.outputs['changes-patch']!;
    expect(path.startsWith(join(temp, 'agent-runs', step.outputs['run-id']!))).toBe(true);
    const patch = readFileSync(path, 'utf8');
    expect(patch).toContain('+++ b/hello.txt');
    expect(patch).toContain('+hello from the scripted model');
  }, 150_000);

  it('cancel ends the harness and everything it started', async () => {
    const created = await t.client.runs.create({ prompt: `${DEFAULT_SCRIPT.hangOn} please`, config: { harness: claude } });
    const dir = join(t.workDir, created.run_id);
    await until(() => existsSync(dir) && processesIn(dir).length > 0);
    await until(() => model.agentTurns().some((r) => JSON.stringify(r.body['messages']).includes(DEFAULT_SCRIPT.hangOn!)));
    await t.client.runs.cancel(created.run_id);
    const run = await t.client.runs.wait(created.run_id, { timeout: 30_000 });
    expect(run.state).toBe('CANCELLED');
    await until(() => processesIn(dir).length === 0, 10_000);
  }, 60_000);

  it('a refusal from the model ends the run FAILED with the harness\'s own message, without the key', async () => {
    const created = await t.client.runs.create({ prompt: `${DEFAULT_SCRIPT.failOn} now`, config: { harness: claude } });
    const run = await t.client.runs.wait(created.run_id, { timeout: 60_000 });
    expect(run.state).toBe('FAILED');
    expect(run.status_message?.message).toContain('The scripted model refuses this prompt.');
    expect(run.status_message?.message).not.toContain(KEY);
  }, 90_000);

  it("the harness's key, printed by the agent as is or base64-encoded, is masked in the output, the transcript and the conversation", async () => {
    const created = await t.client.runs.create({ prompt: 'PRINT-KEY please', config: { harness: claude } });
    const run = await t.client.runs.wait(created.run_id, { timeout: 60_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const output = (await t.client.runs.output(run.run_id)).text;
    expect(output).toContain('***');
    const transcript = await (await fetch(await transcriptUrl(t.server, run.run_id))).text();
    const conversation = JSON.stringify(await t.client.runs.conversation(run.run_id));
    const forms = [KEY, Buffer.from(KEY).toString('base64'), Buffer.from(`k=${KEY};`).toString('base64').slice(4, -4)];
    for (const text of [output, transcript, conversation]) for (const form of forms) expect(text).not.toContain(form);
  }, 90_000);

  it('lists the Claude models as usable and the others as disabled, with what is missing', async () => {
    const { data } = await t.client.models.list().withResponse();
    const sonnet = data.models.find((m) => m.id === 'claude-sonnet-4-5');
    expect(sonnet).toMatchObject({ provider: 'ANTHROPIC', vision_supported: true });
    expect(sonnet?.disable_reason).toBeUndefined();
    const codex = data.models.find((m) => m.id === 'gpt-5-codex');
    expect(codex?.disable_reason).toBe('ADMIN_DISABLED');
    expect(codex?.description).toMatch(/^Unavailable: .*codex/);
    expect(data.default_model_id).toBe('claude-sonnet-4-5');
    // A disabled model is refused at create, naming the field.
    const refused = await t.client.runs.create({ prompt: 'hi', config: { harness: { type: 'claude', model_id: 'gpt-5-codex' } } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).message).toContain('agent_config.harness.model_id');
  });
});

describe.concurrent('the CLI with harnesses', () => {
  async function cli(args: string[]) {
    const { io, out } = capturingIo({ AGENT_RUNS_API_KEY: t.server.apiKey });
    const code = await main(['--base-url', t.server.baseURL, ...args], { io });
    return { code, ...out };
  }

  it('models lists what the server can run, and why the rest is unavailable', async () => {
    const { code, stdout } = await cli(['models']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/claude-sonnet-4-5 \(default\)\s+Claude Sonnet 4\.5 \(Claude Code\)\s+ANTHROPIC\s+available/);
    expect(stdout).toMatch(/gpt-5-codex .*ADMIN_DISABLED: Unavailable/);
  });

  it('run --harness claude --model … runs Claude Code, and get shows the harness and the usage', async () => {
    const started = await cli(['run', 'Write hello.txt, then run the command.', '--harness', 'claude', '--model', 'claude-haiku-4-5', '--wait', '--timeout', '2m']);
    expect(started.code, started.stderr).toBe(0);
    const runId = /Started run (\S+)\./.exec(started.stderr)![1]!;
    const got = await cli(['get', runId]);
    expect(got.stdout).toMatch(/Harness\s+claude/);
    expect(got.stdout).toMatch(/Model\s+claude-haiku-4-5/);
    // Three turns of 135 tokens at Haiku's prices.
    expect(got.stdout).toMatch(/Usage\s+405 tokens, \$0\.0006/);
    // The conversation shows each tool call by its line and what it gave back.
    const conversation = await cli(['conversation', runId]);
    expect(conversation.stdout).toContain(`assistant: $ ${DEFAULT_SCRIPT.command}`);
    expect(conversation.stdout).toContain('tool: listed');
  }, 120_000);

  it('run --harness with a harness the server does not know names the flag', async () => {
    const { code, stderr } = await cli(['run', 'hi', '--harness', 'cursor']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('--harness');
  });
});

describe.concurrent('the MCP server with harnesses', () => {
  it('create_run takes harness and model into config.harness', async () => {
    const mcp = await connectStdio(binEnv(t.server));
    try {
      const result = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Write hello.txt, then run the command.', harness: 'claude', model: 'claude-haiku-4-5' } });
      const runId = (result.structuredContent as { run_id: string }).run_id;
      const run = await t.client.runs.wait(runId, { timeout: 60_000 });
      expect(run.agent_config?.harness).toMatchObject({ type: 'claude', model_id: 'claude-haiku-4-5' });
      expect(run.state).toBe('SUCCEEDED');
    } finally {
      await mcp.close();
    }
  }, 90_000);
});

describe.concurrent('Claude Code that cannot run', () => {
  it('a harness that runs past the timeout is stopped, FAILED, with its processes gone', async () => {
    const s = await startHarnessServer(
      { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] } },
      { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url },
      { commandTimeoutMs: 4000 },
    );
    try {
      const created = await s.client.runs.create({ prompt: `${DEFAULT_SCRIPT.hangOn} forever`, config: { harness: claude } });
      const run = await s.client.runs.wait(created.run_id, { timeout: 60_000 });
      expect(run.state).toBe('FAILED');
      expect(run.status_message?.message).toContain('ran longer than');
      await until(() => processesIn(join(s.workDir, created.run_id)).length === 0, 10_000);
    } finally {
      await s.close();
    }
  }, 90_000);
});
