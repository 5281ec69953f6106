import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/config-file.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { probeAgentCommand } from './probe-agent.js';

const SECRET = 'sk-live-9f8e7d6c5b4a3210/+=?&x';
const FILE_SECRET = 'from-a-file-4b1d9c';
/** A secret of digits, as a PIN is: its text is also a number in an artifact's record. */
const PIN = '90210';
const forms = [SECRET, Buffer.from(SECRET).toString('base64'), encodeURIComponent(SECRET), Buffer.from(`KEY=${SECRET}\n`).toString('base64')];
let t: TestServer;
const serverLog: string[] = [];

beforeAll(async () => {
  process.env.AGENT_RUNS_TEST_PROVIDER_KEY = SECRET;
  process.env.AGENT_RUNS_TEST_PIN = PIN;
  const dir = tempTree({ 'deploy-token': `${FILE_SECRET}\n` });
  t = await startTestServer({
    executor: 'command',
    command: probeAgentCommand,
    quiet: false,
    log: (line) => serverLog.push(line),
    configFile: writeServerConfig(
      {
        secrets: { PROVIDER_KEY: { from_env: 'AGENT_RUNS_TEST_PROVIDER_KEY' }, DEPLOY_TOKEN: { from_file: 'deploy-token' }, PIN: { from_env: 'AGENT_RUNS_TEST_PIN' } },
        environments: { keyed: { secrets: ['PROVIDER_KEY', 'DEPLOY_TOKEN'] }, plain: {} },
      },
      dir,
    ),
  });
});
afterAll(async () => {
  await t?.close();
  delete process.env.AGENT_RUNS_TEST_PROVIDER_KEY;
  delete process.env.AGENT_RUNS_TEST_PIN;
});

/** Every place a run's text leaves the server, as one string per place. */
async function everyPlace(runId: string): Promise<Record<string, string>> {
  const run = await t.client.runs.get(runId);
  const text = async (path: string) => JSON.stringify((await t.raw(path)).body);
  const events = await fetch(`${t.server.baseURL}/agent/runs/${runId}/events`, { headers: { authorization: `Bearer ${t.server.apiKey}`, accept: 'text/event-stream' } });
  return {
    run: JSON.stringify(run),
    output: await text(`/api/v1/agent/runs/${runId}/output`),
    transcript: await text(`/api/v1/agent/runs/${runId}/transcript`),
    conversation: await text(`/api/v1/agent/runs/${runId}/conversation`),
    events: await events.text(),
    session: await (await fetch(run.session_link!)).text(),
    log: serverLog.join('\n'),
  };
}

describe('secrets declared by name', () => {
  it('reach the runs of the environments that list them, and are masked (as is, base64, URL-encoded) wherever run text goes', async () => {
    const { run_id } = await t.client.runs.create({
      prompt: JSON.stringify({ print: ['PROVIDER_KEY', 'DEPLOY_TOKEN'], encoded: ['PROVIDER_KEY'], embedded: ['PROVIDER_KEY'], split: ['PROVIDER_KEY'], fail: ['PROVIDER_KEY'] }),
      config: { environment_id: 'keyed' },
    });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('FAILED');
    // The agent printed them, and more: its own encodings are masked too.
    const places = await everyPlace(run_id);
    const output = ((await t.raw(`/api/v1/agent/runs/${run_id}/output`)).body as { chunks: { text: string }[] }).chunks.map((c) => c.text).join('');
    // Printed as is, then base64 and URL-encoded, then in two writes apart in time.
    expect(output).toContain('*** ***\n*** ***\nenv: ');
    expect(output).toContain('split:***:end\n');
    // Inside a longer base64 text: what is left around the mask is only the prefix's and the newline's.
    expect(/env: (\S+)\n/.exec(output)?.[1]).toMatch(/^S0VZ.*\*\*\*.{0,4}$/);
    expect(run.status_message?.message).toContain('***');
    // The log is not empty: it says how agents start (auto, where bubblewrap works here).
    if (process.platform === 'linux') expect(serverLog.join('\n')).toMatch(/Sandbox on \(bubblewrap, --sandbox auto\): agents run /);
    for (const [place, text] of Object.entries(places)) {
      for (const form of [...forms, FILE_SECRET]) expect(text, `${place} shows a secret`).not.toContain(form);
    }
  });

  it("are masked in an artifact's text fields only, so a record whose number is a secret's text stays whole", async () => {
    const { run_id } = await t.client.runs.create({ prompt: JSON.stringify({ artifactBytes: Number(PIN) }) });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(run.artifacts?.map((a) => a.data)).toEqual([expect.objectContaining({ filename: 'notes.bin', size_bytes: Number(PIN) })]);
  });

  it('are not given to runs of environments that do not list them', async () => {
    const { run_id: probe } = await t.client.runs.create({ prompt: JSON.stringify({ print: ['PROVIDER_KEY', 'DEPLOY_TOKEN'] }), config: { environment_id: 'plain' } });
    await t.client.runs.wait(probe, { pollInterval: 20 });
    const output = (await t.raw(`/api/v1/agent/runs/${probe}/output`)).body as { chunks: { text: string }[] };
    expect(output.chunks.map((c) => c.text).join('')).toBe(' \n');
  });

  it('are refused inline in the file, naming the key without echoing the value', () => {
    const file = writeServerConfig({ secrets: { KEY: 'an-inline-value-1234' } });
    expect(() => loadConfigFile(file)).toThrow(/secrets\.KEY: must be \{ from_env: VARIABLE \} or \{ from_file: path \}/);
    try {
      loadConfigFile(file);
    } catch (error) {
      expect((error as Error).message).not.toContain('an-inline-value-1234');
    }
    expect(() => loadConfigFile(writeServerConfig({ secrets: { KEY: { from_env: 'AGENT_RUNS_TEST_UNSET_VARIABLE' } } }))).toThrow(
      /secrets\.KEY: the variable AGENT_RUNS_TEST_UNSET_VARIABLE is not set/,
    );
    expect(() => loadConfigFile(writeServerConfig({ environments: { e: { secrets: ['NOPE'] } } }))).toThrow(/environments\.e\.secrets\[0\]: "NOPE" is not declared/);
  });
});

describe('--sandbox', () => {
  const bin = fileURLToPath(new URL('../../bin/agent-runs-server.js', import.meta.url));
  const start = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
    spawnSync(process.execPath, [bin, '--port', '0', '--memory', '--command', 'true', ...args], { env, encoding: 'utf8', timeout: 20_000 });

  it('on, without bubblewrap, refuses to start and names what is missing', () => {
    const result = start(['--sandbox', 'on'], { ...process.env, PATH: '/nonexistent' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('--sandbox on: bubblewrap (bwrap) is not installed');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('auto, without bubblewrap, starts and says agents run unsandboxed and why', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [bin, '--port', '0', '--memory', '--command', 'true', '--sandbox', 'auto'], { env: { ...process.env, PATH: '/nonexistent' } });
    let stderr = '';
    await new Promise<void>((resolve) => child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d).includes('listening') && resolve()));
    child.kill();
    expect(stderr).toMatch(/Sandbox off \(--sandbox auto\): bubblewrap \(bwrap\) is not installed/);
  });
});
