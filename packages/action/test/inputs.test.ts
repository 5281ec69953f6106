import { writeFileSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_DEFAULTS } from '../dist/input-defaults.js';
import { startRecorder } from './support/loopback-recorder.js';
import { actionDefaults, parseFileCommands, runStep } from './support/runner.js';

const KEY = 'key-never-printed-7f3a';
let recorder: Awaited<ReturnType<typeof startRecorder>>;
/** Receives the requests of the bad-input cases: there must be none. */
let untouched: Awaited<ReturnType<typeof startRecorder>>;

beforeAll(async () => {
  recorder = await startRecorder(() => ({ status: 500, body: { error: 'this test server takes no runs' } }));
  untouched = await startRecorder();
});
afterAll(async () => {
  await recorder.close();
  await untouched.close();
});

const base = () => ({ prompt: 'Fix the bug', 'api-key': KEY, 'base-url': `${recorder.url}/api/v1` });

// Independent child processes: run them side by side.
describe.concurrent('bad inputs fail the step before any request', () => {
  const cases: Array<[string, Record<string, string | undefined>, RegExp]> = [
    ['no prompt, prompt-file or skill', { prompt: undefined }, /Input "prompt" is required/],
    ['both prompt and prompt-file', { 'prompt-file': 'prompt.md' }, /"prompt" and "prompt-file" are both set/],
    ['an unreadable prompt-file', { prompt: undefined, 'prompt-file': '/nonexistent/prompt.md' }, /Input "prompt-file": cannot read \/nonexistent\/prompt\.md \(ENOENT\)/],
    ['a wait that is not a boolean', { wait: 'yes' }, /Input "wait" must be true or false, got "yes"/],
    ['a timeout that is not a duration', { timeout: 'soon' }, /Input "timeout" must be a duration such as 90s, 45m/],
    ['a zero timeout', { timeout: '0s' }, /Input "timeout" must be a duration/],
    ['a poll-interval below 100ms', { 'poll-interval': '10ms' }, /Input "poll-interval" must be at least 100ms/],
    ['an unknown state in fail-on', { 'fail-on': 'FAILED, EXPLODED' }, /Input "fail-on": "EXPLODED" is not a run state; use terminal states among SUCCEEDED/],
    ['a state in fail-on that never ends a run', { 'fail-on': 'INPROGRESS' }, /Input "fail-on": "INPROGRESS" is not a terminal state/],
    ['cancel-on-timeout that is not a boolean', { 'cancel-on-timeout': 'maybe' }, /Input "cancel-on-timeout" must be true or false/],
    ['job-summary that is not a boolean', { 'job-summary': '1' }, /Input "job-summary" must be true or false/],
    ['mcp-servers that is not JSON', { 'mcp-servers': '{ nope' }, /Input "mcp-servers": JSON is not valid JSON/],
    ['mcp-servers that is neither JSON nor a file', { 'mcp-servers': 'servers.json' }, /Input "mcp-servers": is neither a JSON object nor a readable file/],
    ['an MCP server with two transports', { 'mcp-servers': '{"gh":{"command":"x","url":"https://x.test"}}' }, /Input "mcp-servers": .*gh.*exactly one of warp_id, command or url/],
    ['no api-key', { 'api-key': undefined }, /Input "api-key" is required/],
    ['a base-url that is not a URL', { 'base-url': 'app.example.com' }, /Input "base-url": must be an absolute http\(s\) URL/],
    ['a plain-http base-url that is not loopback', { 'base-url': 'http://agents.example.com/api/v1' }, /Input "base-url": Refusing to send the API key over plain http/],
    ['comment without github-token', { comment: 'true' }, /Input "github-token" is required when "comment" is true/],
  ];

  it.each(cases)('%s', async (_, change, message) => {
    const inputs: Record<string, string> = { ...base(), 'base-url': `${untouched.url}/api/v1` };
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) delete inputs[name];
      else inputs[name] = value;
    }
    const step = await runStep({ inputs });
    expect(step.code).toBe(1);
    expect(step.error).toMatch(message);
    expect(step.error!.split('\n')).toHaveLength(1);
    expect(step.stdout).not.toMatch(/\n\s+at /);
    expect(unmasked(step.stdout)).not.toContain(KEY);
    expect(untouched.requests).toHaveLength(0);
    expect(step.outputs).toEqual({});
  });

  it('lists every bad input in one message when there are several', async () => {
    const step = await runStep({ inputs: { ...base(), wait: 'nah', timeout: 'later' } });
    expect(step.code).toBe(1);
    expect(step.error).toMatch(/^2 inputs are not valid:\n- Input "wait".*\n- Input "timeout"/);
  });
});

describe('the API cannot be used', () => {
  it('names the address and what to check when the server is down (connection refused)', async () => {
    const port = await freePort();
    const step = await runStep({ inputs: { ...base(), 'base-url': `http://127.0.0.1:${port}/api/v1` } });
    expect(step.code).toBe(1);
    expect(step.error).toBe(
      `Could not reach http://127.0.0.1:${port}/api/v1 (ECONNREFUSED). Check "base-url", that the service is up, and that the runner can reach it (self-hosted runners may need a proxy).`,
    );
    expect(unmasked(step.stdout)).not.toContain(KEY);
  });

  it('says the answer is not the API when base-url points elsewhere', async () => {
    const other = await startRecorder(() => ({ status: 200, body: { hello: 'world' } }));
    try {
      const step = await runStep({ inputs: { ...base(), 'base-url': `${other.url}/api/v1` } });
      expect(step.code).toBe(1);
      expect(step.error).toMatch(/is not what the Agent Runs API sends.*Check "base-url"/);
    } finally {
      await other.close();
    }
  });

  it('reads the key from AGENT_RUNS_API_KEY when the api-key input is empty, and masks it', async () => {
    const step = await runStep({ inputs: { ...base(), 'api-key': '' }, env: { AGENT_RUNS_API_KEY: KEY } });
    expect(step.stdout).toContain(`::add-mask::${KEY}`);
    const created = recorder.requests.at(-1)!;
    expect(created.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(step.error).toMatch(/had a problem \(500\)/);
  });
});

describe('the runner contract', () => {
  it('declares in action.yml the defaults the code applies', () => {
    expect(actionDefaults()).toEqual(INPUT_DEFAULTS);
  });

  it('parses both forms of the GITHUB_OUTPUT file', () => {
    expect(parseFileCommands('a=1\nb<<EOF_x\nline one\nline two\nEOF_x\na=2\n')).toEqual({ a: '2', b: 'line one\nline two' });
  });

  it('reads a prompt from prompt-file, without its final newline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompt-'));
    writeFileSync(join(dir, 'prompt.md'), 'Triage the open issues\n');
    const { prompt: _, ...rest } = base();
    await runStep({ inputs: { ...rest, 'prompt-file': join(dir, 'prompt.md') } });
    expect(JSON.parse(recorder.requests.at(-1)!.body).prompt).toBe('Triage the open issues');
  });
});

/** The log as the runner shows it: add-mask lines are consumed, not printed. */
const unmasked = (log: string) => log.replace(/^::add-mask::.*$/gm, '');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
