import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '@agent-runs/cli';
import { capturingIo } from '../../packages/cli/test/support/in-process-io.js';
import { MCP_FIXTURE } from './mcp-fixture.js';
import { DEFAULT_SCRIPT, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { connectLog, isLoopback, type ConnectLog } from './gemini-connect-log.js';
import { startGeminiServer } from './gemini-script-server.js';
import { conversationBlocks, expectTurn, harnessCli, processesIn, startHarnessServer, transcriptUrl, until, type HarnessTestServer } from './harness-test-server.js';

/** This project's own MCP server, as a stdio MCP server of a run. */
const KEY = 'AIzaSy-test-0123456789-very-secret';
const gemini = { type: 'gemini', model_id: 'gemini-2.5-flash' } as const;


const textOf = (body: Record<string, unknown>) => JSON.stringify(body['contents'] ?? []);

let model: ScriptedModelServer;
let connections: ConnectLog;
let t: HarnessTestServer;
beforeAll(async () => {
  model = await startGeminiServer();
  connections = connectLog();
  t = await startHarnessServer(
    { gemini: { command: harnessCli('gemini'), env: ['GEMINI_API_KEY', 'GOOGLE_GEMINI_BASE_URL', 'NODE_OPTIONS', 'AGENT_RUNS_TEST_CONNECT_LOG'] } },
    { GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: model.url, ...connections.env },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
});

// Each test has runs of its own, and the describes below too: two at a time (vitest's maxConcurrency), as the
// server runs two at once, rather than each Gemini CLI start-up waiting for the one before it. A run's turns
// are those whose session context names its working directory.
describe.concurrent('Gemini CLI as the run harness, against a scripted Gemini API server', () => {
  it('writes the file, runs the command, streams each step in order, records usage and cost, and a follow-up resumes its session', async () => {
    const created = await t.client.runs.create({
      prompt: 'Write hello.txt, then run the command.',
      config: { harness: gemini, base_prompt: 'SKILL: answer in plain words.' },
    });
    const seen: string[] = [];
    for await (const event of t.client.runs.events(created.run_id)) {
      if (event.type === 'output') seen.push(event.data.text);
    }
    const run = await t.client.runs.get(created.run_id);
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(run.status_message?.message).toBe(DEFAULT_SCRIPT.answer);

    const dir = join(t.workDir, run.run_id);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(DEFAULT_SCRIPT.content);
    expect(readFileSync(join(dir, 'ran.txt'), 'utf8')).toBe('shell-ran\n');

    // Each step as one readable line (the streamed deltas joined), in the order the agent took them.
    const output = seen.join('');
    const order = ['I will write the file first.\n', `edit ${join(dir, 'hello.txt')}`, `$ ${DEFAULT_SCRIPT.command}`, '  listed', `${DEFAULT_SCRIPT.answer}\n`].map((line) => output.indexOf(line));
    expect(order.every((i) => i >= 0), output).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Its terminal warnings are off: a pipe has no colours, and a run's output is not a terminal.
    expect(output).not.toContain('256-color');

    // Three agent turns of 100 prompt tokens (10 of them cached), 20 output and 5 thinking tokens, at 2.5 Flash's prices.
    expect(run.request_usage?.total_tokens).toBe(3 * 125);
    const byModel = run.request_usage?.usage_by_category?.['primary_agent']?.direct_api_inference_usage?.['gemini-2.5-flash'];
    expect(byModel?.token_count).toEqual({ input: 270, output: 75, input_cache_read: 30, input_cache_write: 0 });
    expect(run.request_usage?.inference_cost_usd).toBeCloseTo((270 * 0.3 + 75 * 2.5 + 30 * 0.03) / 1e6, 10);

    // The key reached the model server (and only it), the base prompt its system instruction.
    const turns = model.agentTurns();
    expect(turns.every((r) => r.apiKey === KEY)).toBe(true);
    expect(JSON.stringify(turns.find((r) => textOf(r.body).includes(dir))!.body['systemInstruction'])).toContain('SKILL: answer in plain words.');
    const transcript = await (await fetch(await transcriptUrl(t.server, run.run_id))).text();
    for (const text of [output, JSON.stringify(run), transcript]) expect(text).not.toContain(KEY);
    const harnessLines = transcript.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; line?: string }).filter((l) => l.kind === 'harness');
    expect(harnessLines.some((l) => l.line!.includes('"type":"result"'))).toBe(true);

    // The follow-up resumes the session: its first request carries the earlier turns.
    const before = model.agentTurns().length;
    await t.client.runs.followup(run.run_id, { message: 'Now say that again.' });
    const after = await t.client.runs.wait(run.run_id, { timeout: 90_000 });
    expect(after.state, JSON.stringify(after.status_message)).toBe('SUCCEEDED');
    const resumed = textOf(model.agentTurns().slice(before).find((r) => textOf(r.body).includes(dir))!.body);
    expect(resumed).toContain('Write hello.txt, then run the command.');
    expect(resumed).toContain(DEFAULT_SCRIPT.answer);
    expect(resumed).toContain('Now say that again.');
    // The CLI's totals count only its own start; the run's add up both executions.
    expect(after.request_usage?.total_tokens).toBe(6 * 125);
    // The first execution's turn is its step of the conversation.
    expectTurn(await conversationBlocks(t.client, run.run_id), DEFAULT_SCRIPT.command);

    // Telemetry, usage statistics and update checks are off: nothing but the loopback model server was reached.
    const reached = connections.entries(t.workDir);
    expect(reached.some((c) => c.kind === 'connect' && c.port === new URL(model.url).port)).toBe(true);
    expect(reached.filter((c) => !isLoopback(c))).toEqual([]);
  }, 180_000);

  it('passes reasoning_level as the model\'s thinking and the MCP servers in its own settings file, readable by the server\'s user only', async () => {
    const created = await t.client.runs.create({
      prompt: 'Write hello.txt, then run the command.',
      config: {
        harness: { ...gemini, reasoning_level: 'low' },
        mcp_servers: { docs: { url: 'http://127.0.0.1:9/mcp', headers: { authorization: 'Bearer $NOT_EXPANDED' } }, runs: { command: process.execPath, args: ['-e', MCP_FIXTURE, 'seen.jsonl'] } },
      },
    });
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    // The session context names the run's working directory: its turns, not another run's.
    const turns = model.agentTurns().filter((r) => textOf(r.body).includes(join(t.workDir, created.run_id)));
    expect(turns.length).toBe(3);
    for (const turn of turns) expect((turn.body['generationConfig'] as { thinkingConfig?: unknown }).thinkingConfig).toMatchObject({ thinkingBudget: 1024 });
    // The run's stdio MCP server reached the agent: its tool is the model's to call.
    const declared = (turns[0]!.body['tools'] as { functionDeclarations?: { name: string }[] }[]).flatMap((tool) => tool.functionDeclarations ?? []).map((f) => f.name);
    expect(declared.some((name) => name.includes('echo')), declared.join(' ')).toBe(true);

    const found = join(t.workDir, '.agent-runs', created.run_id, 'harness', 'gemini', 'home', '.gemini', 'settings.json');
    expect(statSync(found).mode & 0o777).toBe(0o600);
    const settings = JSON.parse(readFileSync(found, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>>; security: unknown; privacy: unknown };
    expect(settings.mcpServers['docs']).toEqual({ httpUrl: 'http://127.0.0.1:9/mcp', headers: { authorization: 'Bearer ${AGENT_RUNS_LITERAL_DOLLAR:-$}NOT_EXPANDED' } });
    expect(settings.mcpServers['runs']).toMatchObject({ command: process.execPath, args: ['-e', MCP_FIXTURE, 'seen.jsonl'] });
    expect(settings.security).toEqual({ auth: { selectedType: 'gemini-api-key' } });
    expect(settings.privacy).toEqual({ usageStatisticsEnabled: false });
    expect(readFileSync(found, 'utf8')).not.toContain(KEY);
  }, 120_000);

  it('gives a Gemini 3 model reasoning_level as its thinkingLevel, and prices it as Gemini 3', async () => {
    const created = await t.client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: { type: 'gemini', model_id: 'gemini-3-flash-preview', reasoning_level: 'low' } } });
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const turns = model.agentTurns().filter((r) => textOf(r.body).includes(join(t.workDir, created.run_id)));
    expect(turns.map((r) => r.path.split(':')[0])).toEqual(Array(3).fill('/v1beta/models/gemini-3-flash-preview'));
    for (const turn of turns) expect((turn.body['generationConfig'] as { thinkingConfig?: unknown }).thinkingConfig).toMatchObject({ thinkingLevel: 'LOW' });
    // 270 input, 75 output (thinking included) and 30 cached tokens at $0.50, $3 and $0.05 a million.
    expect(run.request_usage?.inference_cost_usd).toBeCloseTo((270 * 0.5 + 75 * 3 + 30 * 0.05) / 1e6, 10);
  }, 120_000);

  it('cancel ends the harness and everything it started', async () => {
    const created = await t.client.runs.create({ prompt: `${DEFAULT_SCRIPT.hangOn} please`, config: { harness: gemini } });
    const dir = join(t.workDir, created.run_id);
    await until(() => existsSync(dir) && processesIn(dir).length > 0, 60_000);
    await until(() => model.agentTurns().some((r) => textOf(r.body).includes(DEFAULT_SCRIPT.hangOn!)), 60_000);
    await t.client.runs.cancel(created.run_id);
    const run = await t.client.runs.wait(created.run_id, { timeout: 30_000 });
    expect(run.state).toBe('CANCELLED');
    await until(() => processesIn(dir).length === 0, 10_000);
  }, 120_000);

  it('a refusal from the model ends the run FAILED with the API\'s own message, without the key', async () => {
    const created = await t.client.runs.create({ prompt: `${DEFAULT_SCRIPT.failOn} now`, config: { harness: gemini } });
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state).toBe('FAILED');
    expect(run.status_message?.message).toContain('The gemini harness failed: The scripted model refuses this prompt. (400 INVALID_ARGUMENT)');
    expect(run.status_message?.message).not.toContain(KEY);
  }, 120_000);

  it('lists the Gemini models as usable', async () => {
    const { data } = await t.client.models.list().withResponse();
    const flash = data.models.find((m) => m.id === 'gemini-2.5-flash');
    expect(flash).toMatchObject({ provider: 'GOOGLE', vision_supported: true });
    expect(flash?.disable_reason).toBeUndefined();
    expect(data.models.find((m) => m.id === 'claude-sonnet-4-5')?.disable_reason).toBe('ADMIN_DISABLED');
  });
});

describe.concurrent('the CLI with the gemini harness', () => {
  it('run --harness gemini --model … runs Gemini CLI, and get shows the harness, the model and the usage', async () => {
    const cli = async (args: string[]) => {
      const { io, out } = capturingIo({ AGENT_RUNS_API_KEY: t.server.apiKey });
      const code = await main(['--base-url', t.server.baseURL, ...args], { io });
      return { code, ...out };
    };
    const started = await cli(['run', 'Write hello.txt, then run the command.', '--harness', 'gemini', '--model', 'gemini-2.5-pro', '--wait', '--timeout', '2m']);
    expect(started.code, started.stderr).toBe(0);
    const runId = /Started run (\S+)\./.exec(started.stderr)![1]!;
    const got = await cli(['get', runId]);
    expect(got.stdout).toMatch(/Harness\s+gemini/);
    expect(got.stdout).toMatch(/Model\s+gemini-2\.5-pro/);
    // Three turns of 125 tokens at 2.5 Pro's prices: (270 × 1.25 + 75 × 10 + 30 × 0.125) / 1e6.
    expect(got.stdout).toMatch(/Usage\s+375 tokens, \$0\.001/);
  }, 120_000);
});

describe.concurrent('Gemini CLI that cannot run', () => {
  it('a harness that runs past the timeout is stopped, FAILED, with its processes gone', async () => {
    const s = await startHarnessServer(
      { gemini: { command: harnessCli('gemini'), env: ['GEMINI_API_KEY', 'GOOGLE_GEMINI_BASE_URL'] } },
      { GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: model.url },
      { commandTimeoutMs: 8000 },
    );
    try {
      const created = await s.client.runs.create({ prompt: `${DEFAULT_SCRIPT.hangOn} forever`, config: { harness: gemini } });
      const run = await s.client.runs.wait(created.run_id, { timeout: 60_000 });
      expect(run.state).toBe('FAILED');
      expect(run.status_message?.message).toContain('ran longer than');
      await until(() => processesIn(join(s.workDir, created.run_id)).length === 0, 10_000);
    } finally {
      await s.close();
    }
  }, 90_000);
});
