import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError } from '@agent-runs/core';
import { main } from '@agent-runs/cli';
import { capturingIo } from '../../packages/cli/test/support/in-process-io.js';
import type { ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { PROXY_VARIABLES, startRecordingProxy, type RecordingProxy } from './recording-proxy.js';
import { conversationBlocks, expectTurn, harnessCli, processesIn, startHarnessServer, transcriptUrl, until, type HarnessTestServer } from './harness-test-server.js';
import { DEFAULT_SCRIPT, startOpenAiServer } from './openai-script-server.js';
import { MCP_FIXTURE } from './mcp-fixture.js';

const KEY = 'sk-openai-test-0123456789-very-secret';
const codex = { type: 'codex', model_id: 'gpt-5.5' } as const;
/** A skill's prompt with what a TOML file must escape: quotes, a backslash, new lines, TOML's own syntax. */
const SYSTEM_PROMPT = 'Always answer in English.\nQuote "this", keep a back\\slash and \'\'\' as they are.\n[table]\nkey = "value"';
/** A 1×1 PNG. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A process's state line and command, for a failure to name what outlived its run. */
function describeProcess(pid: number): string {
  try {
    return `${readFileSync(`/proc/${pid}/stat`, 'utf8').slice(0, 120)} :: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').slice(0, 300)}`;
  } catch {
    return `${pid} (gone)`;
  }
}

/** A stdio MCP server of one tool that notes each request it gets (and whether its variable reached it) in the file it is given. */

let model: ScriptedModelServer;
let proxy: RecordingProxy;
let t: HarnessTestServer;
beforeAll(async () => {
  model = await startOpenAiServer();
  proxy = await startRecordingProxy();
  t = await startHarnessServer(
    { codex: { command: harnessCli('codex'), env: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', ...PROXY_VARIABLES, 'NO_PROXY', 'no_proxy'] } },
    { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${model.url}/v1`, ...proxy.env },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
  await proxy?.close();
});

describe('Codex CLI as the run harness, against a scripted OpenAI Responses server', () => {
  it('writes the file, runs the command, streams each step in order, records usage and cost, and a follow-up resumes its thread', async () => {
    const created = await t.client.runs.create({
      prompt: 'Write hello.txt, then run the command.',
      config: { harness: { ...codex, reasoning_level: 'high' }, base_prompt: SYSTEM_PROMPT },
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

    // Each step as one readable line, in the order the agent took them.
    const output = seen.join('');
    const order = ['I will write the file first.', 'edit hello.txt', `$ ${DEFAULT_SCRIPT.command}`, '  listed', DEFAULT_SCRIPT.answer].map((line) => output.indexOf(line));
    expect(order.every((i) => i >= 0), output).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    // The model, the effort and the system-prompt addition reached the model server.
    const first = model.agentTurns()[0]!;
    expect(first.body['model']).toBe('gpt-5.5');
    expect((first.body['reasoning'] as { effort?: string }).effort).toBe('high');
    expect(JSON.stringify(first.body['input'])).toContain(JSON.stringify(SYSTEM_PROMPT).slice(1, -1));

    // Three agent turns of 100 input tokens (10 cached) and 20 output, at GPT-5's list prices.
    expect(run.request_usage?.total_tokens).toBe(3 * 120);
    const byModel = run.request_usage?.usage_by_category?.['primary_agent']?.direct_api_inference_usage?.['gpt-5.5'];
    expect(byModel?.token_count).toEqual({ input: 270, output: 60, input_cache_read: 30, input_cache_write: 0 });
    expect(run.request_usage?.inference_cost_usd).toBeCloseTo((270 * 1.25 + 30 * 0.125 + 60 * 10) / 1e6, 9);

    // The key reached the model server, and nothing else of the run shows it.
    expect(model.agentTurns().every((r) => r.apiKey === KEY)).toBe(true);
    const transcript = await (await fetch(await transcriptUrl(t.server, run.run_id))).text();
    for (const text of [output, JSON.stringify(run), transcript]) expect(text).not.toContain(KEY);
    const harnessLines = transcript.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; line?: string }).filter((l) => l.kind === 'harness');
    expect(harnessLines.some((l) => l.line!.includes('"type":"turn.completed"'))).toBe(true);

    // The follow-up resumes the thread: its first request carries the earlier turns.
    const before = model.agentTurns().length;
    await t.client.runs.followup(run.run_id, { message: 'Now say that again.' });
    const after = await t.client.runs.wait(run.run_id, { timeout: 60_000 });
    expect(after.state, JSON.stringify(after.status_message)).toBe('SUCCEEDED');
    const resumed = JSON.stringify(model.agentTurns()[before]!.body['input']);
    expect(resumed).toContain('Write hello.txt, then run the command.');
    expect(resumed).toContain(DEFAULT_SCRIPT.answer);
    expect(resumed).toContain('Now say that again.');
    // Codex's totals count the whole thread: six turns, not nine.
    expect(after.request_usage?.total_tokens).toBe(6 * 120);
    // The first execution's turn is its step of the conversation.
    expectTurn(await conversationBlocks(t.client, run.run_id), DEFAULT_SCRIPT.command);

    // Nothing went anywhere but the model server (update checks, analytics, plugins all off).
    expect(proxy.seen).toEqual([]);
    expect(model.requests.every((r) => r.path === '/v1/responses')).toBe(true);
  }, 120_000);

  it('the run\'s MCP servers reach Codex in its own config.toml, readable by the server\'s user only, and Codex starts them', async () => {
    const created = await t.client.runs.create({
      prompt: 'Write hello.txt, then run the command.',
      config: {
        harness: codex,
        mcp_servers: {
          // Given inline, and writing into its working directory (the run's): the sandboxed agent sees no test files.
          'my.tools': { command: process.execPath, args: ['-e', MCP_FIXTURE, 'seen.jsonl'], env: { TOOLS_TOKEN: 'tok-123456789' } },
          web: { url: 'http://127.0.0.1:9/mcp', headers: { authorization: 'Bearer x' } },
        },
      },
    });
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    // CODEX_HOME is the run's private state directory beside its protocol files.
    const file = join(t.workDir, '.agent-runs', run.run_id, 'harness', 'codex', 'config.toml');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const toml = readFileSync(file, 'utf8');
    expect(toml).toContain('["mcp_servers"."my_tools"]');
    expect(toml).toContain('"url" = "http://127.0.0.1:9/mcp"');
    // Codex started the stdio server with its variables, and listed its tools.
    const calls = readFileSync(join(t.workDir, run.run_id, 'seen.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { method: string; token: string });
    expect(calls.map((c) => c.method)).toEqual(expect.arrayContaining(['initialize', 'tools/list']));
    expect(calls[0]!.token).toBe('tok-123456789');
  }, 120_000);

  it('an attached image reaches the model as an image, and other attachments as files named in the prompt', async () => {
    const created = await t.client.runs.create({
      prompt: 'Write hello.txt, then run the command.',
      config: { harness: codex },
      attachments: [
        { file_name: 'screen.png', mime_type: 'image/png', data: PIXEL_PNG },
        { file_name: 'spec.md', mime_type: 'text/markdown', data: Buffer.from('# Spec\n').toString('base64') },
      ],
    });
    const before = model.agentTurns().length;
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const input = model.agentTurns()[before]!.body['input'] as { role?: string; content?: { type: string; image_url?: string; text?: string }[] }[];
    const prompt = input.filter((i) => i.role === 'user').flatMap((i) => i.content ?? []);
    expect(prompt.some((c) => c.type === 'input_image' && c.image_url?.startsWith('data:image/png;base64,'))).toBe(true);
    expect(prompt.some((c) => c.type === 'input_text' && c.text?.includes('spec.md'))).toBe(true);
  }, 120_000);

  it('cancel ends the harness and everything it started', async () => {
    const created = await t.client.runs.create({ prompt: `${DEFAULT_SCRIPT.hangOn} please`, config: { harness: codex } });
    const dir = join(t.workDir, created.run_id);
    await until(() => existsSync(dir) && processesIn(dir).length > 0);
    await until(() => model.agentTurns().some((r) => JSON.stringify(r.body['input']).includes(DEFAULT_SCRIPT.hangOn!)));
    await t.client.runs.cancel(created.run_id);
    const run = await t.client.runs.wait(created.run_id, { timeout: 30_000 });
    expect(run.state).toBe('CANCELLED');
    await until(() => processesIn(dir).length === 0, 10_000).catch(() => {
      throw new Error(`still running after the cancel:\n${processesIn(dir).map(describeProcess).join('\n')}`);
    });
  }, 60_000);

  it('cancel while a command runs ends the command too, though Codex starts it in a session of its own', async () => {
    const slow = await startOpenAiServer({ ...DEFAULT_SCRIPT, command: 'sleep 137 && echo never' });
    const s = await startHarnessServer({ codex: { command: harnessCli('codex'), env: ['OPENAI_API_KEY', 'OPENAI_BASE_URL'] } }, { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${slow.url}/v1` });
    try {
      const created = await s.client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: codex } });
      const dir = join(s.workDir, created.run_id);
      const sleeping = () => processesIn(dir).filter((pid) => describeProcess(pid).includes('sleep 137'));
      await until(() => sleeping().length > 0, 60_000);
      await s.client.runs.cancel(created.run_id);
      const run = await s.client.runs.wait(created.run_id, { timeout: 30_000 });
      expect(run.state).toBe('CANCELLED');
      await until(() => processesIn(dir).length === 0, 10_000).catch(() => {
        throw new Error(`still running after the cancel:\n${processesIn(dir).map(describeProcess).join('\n')}`);
      });
    } finally {
      await s.close();
      await slow.close();
    }
  }, 90_000);

  it('a refusal from the model ends the run FAILED with the provider\'s own message, without the key', async () => {
    const created = await t.client.runs.create({ prompt: `${DEFAULT_SCRIPT.failOn} now`, config: { harness: codex } });
    const run = await t.client.runs.wait(created.run_id, { timeout: 60_000 });
    expect(run.state).toBe('FAILED');
    expect(run.status_message?.message).toBe('The codex harness failed: The scripted model refuses this prompt.');
    expect(JSON.stringify(run)).not.toContain(KEY);
  }, 90_000);

  it('lists the Codex models as usable', async () => {
    const { data } = await t.client.models.list().withResponse();
    for (const id of ['gpt-5.5', 'gpt-5-codex']) {
      const listed = data.models.find((m) => m.id === id);
      expect(listed).toMatchObject({ provider: 'OPENAI' });
      expect(listed?.disable_reason).toBeUndefined();
    }
    expect(data.default_model_id).toBe('gpt-5.5');
    expect(data.models.find((m) => m.id === 'claude-sonnet-4-5')?.disable_reason).toBe('ADMIN_DISABLED');
  });
});

describe('the CLI with the Codex harness', () => {
  it('run --harness codex --model … runs Codex, and get shows the harness, the model and the usage', async () => {
    const { io, out } = capturingIo({ AGENT_RUNS_API_KEY: t.server.apiKey });
    const code = await main(['--base-url', t.server.baseURL, 'run', 'Write hello.txt, then run the command.', '--harness', 'codex', '--model', 'gpt-5-codex', '--wait', '--timeout', '2m'], { io });
    expect(code, out.stderr).toBe(0);
    const runId = /Started run (\S+)\./.exec(out.stderr)![1]!;
    const got = capturingIo({ AGENT_RUNS_API_KEY: t.server.apiKey });
    await main(['--base-url', t.server.baseURL, 'get', runId], { io: got.io });
    expect(got.out.stdout).toMatch(/Harness\s+codex/);
    expect(got.out.stdout).toMatch(/Model\s+gpt-5-codex/);
    // Three turns of 120 tokens at GPT-5's list prices; (Codex has no metadata for this model, and runs it all the same).
    expect(got.out.stdout).toMatch(/Usage\s+360 tokens, \$0\.0009/);
    const output = await t.client.runs.get(runId);
    expect(output.state).toBe('SUCCEEDED');
  }, 120_000);
});

describe('Codex CLI that cannot run', () => {
  it('a harness that runs past the timeout is stopped, FAILED, with its processes gone', async () => {
    const s = await startHarnessServer(
      { codex: { command: harnessCli('codex'), env: ['OPENAI_API_KEY', 'OPENAI_BASE_URL'] } },
      { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${model.url}/v1` },
      { commandTimeoutMs: 4000 },
    );
    try {
      const created = await s.client.runs.create({ prompt: `${DEFAULT_SCRIPT.hangOn} forever`, config: { harness: codex } });
      const run = await s.client.runs.wait(created.run_id, { timeout: 60_000 });
      expect(run.state).toBe('FAILED');
      expect(run.status_message?.message).toContain('ran longer than');
      await until(() => processesIn(join(s.workDir, created.run_id)).length === 0, 10_000);
    } finally {
      await s.close();
    }
  }, 90_000);

  it("a key from a named secret of the caller's principal reaches the provider, and a secret the file does not declare is a 400 naming the field", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'codex-secret-'));
    const keyFile = join(dir, 'openai-key');
    const fileKey = 'sk-openai-from-a-file-0123456789';
    writeFileSync(keyFile, `${fileKey}\n`, { mode: 0o600 });
    const s = await startHarnessServer(
      { codex: { command: harnessCli('codex'), env: ['OPENAI_BASE_URL'] } },
      { OPENAI_BASE_URL: `${model.url}/v1` },
      {},
      // Declared for the principal of the server's generated key, so its runs may name it.
      { secrets: { TEAM_OPENAI_KEY: { from_file: keyFile, owner: 'local' } } },
    );
    try {
      const before = model.agentTurns().length;
      const created = await s.client.runs.create({ prompt: 'Write hello.txt, then run the command.', config: { harness: codex, harness_auth_secrets: { codex_auth_secret_name: 'TEAM_OPENAI_KEY' } } });
      const run = await s.client.runs.wait(created.run_id, { timeout: 90_000 });
      expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
      expect(model.agentTurns()[before]!.apiKey).toBe(fileKey);
      expect(JSON.stringify(run)).not.toContain(fileKey);
      const error = await s.client.runs.create({ prompt: 'hi', config: { harness: codex, harness_auth_secrets: { codex_auth_secret_name: 'NOT_DECLARED' } } }).catch((e: unknown) => e);
      expect((error as APIError).status).toBe(400);
      expect((error as APIError).message).toContain('agent_config.harness_auth_secrets.codex_auth_secret_name');
    } finally {
      await s.close();
    }
  }, 120_000);
});
