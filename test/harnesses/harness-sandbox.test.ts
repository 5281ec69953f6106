import { existsSync, lstatSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicServer, DEFAULT_SCRIPT, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { harnessCli, processesIn, startHarnessServer, type HarnessTestServer } from './harness-test-server.js';

/**
 * Claude Code in the agent sandbox (issue 23; issue 20.1 for harness runs): the scripted
 * model has the agent run `probe.sh`, the run's own attachment, with its Bash tool; what it
 * prints lands in `probe.txt` in its working directory and in the run's output.
 */
const KEY = 'sk-ant-sandbox-test-0123456789';
const claude = { type: 'claude', model_id: 'claude-sonnet-4-5' } as const;
const root = mkdtempSync(join(tmpdir(), 'agent-runs-harness-sandbox-'));
const dataDir = join(root, 'data');
const victim = join(root, 'victim.txt');
const isRoot = process.getuid?.() === 0;

let model: ScriptedModelServer;
let t: HarnessTestServer;
/** A loopback port that answers, but is not the agent's to reach: the test's own listener. */
let other: Server;
let otherPort: number;
beforeAll(async () => {
  other = createServer((_req, res) => res.end('not for agents'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherPort = (other.address() as AddressInfo).port;
  writeFileSync(victim, 'untouched\n');
  model = await startAnthropicServer({ ...DEFAULT_SCRIPT, command: 'sh "$AGENT_RUNS_ATTACHMENTS_DIR/probe.sh" > probe.txt 2>&1; cat probe.txt' });
  t = await startHarnessServer(
    { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] } },
    { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url },
    { sandbox: 'on', network: 'none', storage: 'file', dataDir },
    { environments: { 'allow-list': { network: ['registry.example.invalid:443'] } } },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
  other?.close();
});

/** Runs Claude Code with `probe` as its probe.sh; the run and what the probe printed. */
async function probeRun(probe: string, config: Record<string, unknown> = {}) {
  const created = await t.client.runs.create({
    prompt: 'Write hello.txt, then run the command.',
    config: { harness: claude, ...config },
    attachments: [{ file_name: 'probe.sh', mime_type: 'text/x-sh', data: Buffer.from(probe).toString('base64') }],
  });
  const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
  const printed = readFileSync(join(t.workDir, run.run_id, 'probe.txt'), 'utf8');
  return { run, printed };
}

async function outputOf(runId: string): Promise<string> {
  const res = await fetch(`${t.server.baseURL}/agent/runs/${runId}/output`, { headers: { authorization: `Bearer ${t.server.apiKey}` } });
  return res.text();
}

function stateDir(runId: string): string {
  return join(t.workDir, '.agent-runs', runId, 'harness', 'claude');
}

// Each test has runs of its own: two at a time (vitest's maxConcurrency), as the server runs two at once,
// rather than each Claude Code start-up waiting for the one before it.
describe.concurrent('Claude Code in the sandbox', () => {
  it('runs as the agent user, cannot read the data directory nor reach another loopback port, and still reaches its model and its server', async () => {
    const port = new URL(t.server.url).port;
    const { run, printed } = await probeRun(
      [
        'echo "uid=$(id -u)"',
        `cat ${join(dataDir, 'session-secret')} >/dev/null 2>&1 && echo read-secret=yes || echo read-secret=no`,
        `ls ${dataDir} >/dev/null 2>&1 && echo list-data=yes || echo list-data=no`,
        `node -e "fetch('http://127.0.0.1:${port}/healthz').then((r) => console.log('direct=reached', r.status), (e) => console.log('direct=unreachable', (e.cause && e.cause.code) || e.message))"`,
        `curl -s -o /dev/null -w 'proxied=%{http_code}\\n' --max-time 5 http://127.0.0.1:${port}/healthz || echo proxied=failed`,
        `curl -s -o /dev/null -w 'other=%{http_code}\\n' --max-time 5 http://127.0.0.1:${otherPort}/ || echo other=failed`,
        'echo probe-done',
      ].join('\n'),
    );
    // The model endpoint (loopback here) was let through the `none` policy: the run went to its end.
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(printed).toContain('probe-done');
    if (isRoot) expect(printed).toMatch(/^uid=(?!0\n)\d+$/m);
    expect(printed).toContain('read-secret=no');
    expect(printed).toContain('list-data=no');
    expect(printed).toContain('direct=unreachable');
    expect(printed).not.toContain('direct=reached');
    // Through the proxy the server's own address answers (the agent's run token is for it, AGENT_RUNS_API_URL);
    // any other loopback port is refused (403), never answered.
    expect(printed).toMatch(/^proxied=200$/m);
    expect(printed).toMatch(/^other=(403|000|failed)$/m);
    // The run's output shows it too.
    expect(await outputOf(run.run_id)).toContain('direct=unreachable');
    expect(readFileSync(join(t.workDir, run.run_id, 'hello.txt'), 'utf8')).toBe(DEFAULT_SCRIPT.content);
  }, 120_000);

  it('under an allow-list that does not name them, still reaches its model and its server through the proxy, which refuses another loopback port', async () => {
    const port = new URL(t.server.url).port;
    const { run, printed } = await probeRun(
      [
        `curl -s -o /dev/null -w 'proxied=%{http_code}\\n' --max-time 5 http://127.0.0.1:${port}/healthz || echo proxied=failed`,
        `curl -s -o /dev/null -w 'other=%{http_code}\\n' --max-time 5 http://127.0.0.1:${otherPort}/ || echo other=failed`,
        'echo probe-done',
      ].join('\n'),
      { environment_id: 'allow-list' },
    );
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(printed).toContain('probe-done');
    expect(printed).toMatch(/^proxied=200$/m);
    expect(printed).toMatch(/^other=403$/m);
  }, 120_000);

  it("keeps a run's mcp.json the agent user's alone, out of another run's reach, and never follows a link planted in its state", async () => {
    const token = 'ghp_only_for_the_first_run';
    const first = await probeRun(`rm -f "$(dirname "$AGENT_RUNS_WORK_DIR")/.agent-runs/$AGENT_RUNS_RUN_ID/harness/claude/mcp.json"
ln -s ${victim} "$(dirname "$AGENT_RUNS_WORK_DIR")/.agent-runs/$AGENT_RUNS_RUN_ID/harness/claude/mcp.json" && echo planted`, {
      mcp_servers: { gh: { command: 'true', env: { GITHUB_TOKEN: token } } },
    });
    expect(first.run.state, JSON.stringify(first.run.status_message)).toBe('SUCCEEDED');
    expect(first.printed).toContain('planted');
    const mcp = join(stateDir(first.run.run_id), 'mcp.json');

    // Another run's agent: the first run's MCP token, attachment and prompt are out of its reach.
    const firstProto = join(t.workDir, '.agent-runs', first.run.run_id);
    const snoop = await probeRun(
      [
        `cat ${mcp} && echo READ-MCP`,
        `cat ${join(firstProto, 'attachments', 'probe.sh')} >/dev/null && echo READ-ATTACHMENT`,
        `cat ${join(firstProto, 'executions', '1', 'conversation.jsonl')} && echo READ-PROMPT`,
        `ls ${stateDir(first.run.run_id)} && echo LISTED-STATE`,
        `echo forged > ${join(t.workDir, first.run.run_id, 'forged')} && echo WROTE`,
        'echo snoop-done',
      ].join('\n'),
    );
    expect(snoop.run.state).toBe('SUCCEEDED');
    expect(snoop.printed).toContain('snoop-done');
    for (const leak of [token, 'READ-MCP', 'READ-ATTACHMENT', 'READ-PROMPT', 'LISTED-STATE', 'WROTE']) expect(snoop.printed).not.toContain(leak);

    // The follow-up resumes the session from the state directory; the link the agent left is removed, not followed.
    await t.client.runs.followup(first.run.run_id, { message: 'Once more.' });
    const after = await t.client.runs.wait(first.run.run_id, { timeout: 90_000 });
    expect(after.state, JSON.stringify(after.status_message)).toBe('SUCCEEDED');
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    // The agent of the second execution planted its link again after the server wrote mcp.json; the server's write was a file.
    const written = lstatSync(join(stateDir(first.run.run_id)));
    expect(written.mode & 0o777).toBe(0o700);
    if (isRoot) expect(written.uid).not.toBe(0);
  }, 240_000);

  it('hands the MCP configuration to the agent user at mode 0600', async () => {
    const created = await t.client.runs.create({
      prompt: `${DEFAULT_SCRIPT.failOn} now`,
      config: { harness: claude, mcp_servers: { gh: { command: 'true', env: { GITHUB_TOKEN: 'ghp_mode_check' } } } },
    });
    await t.client.runs.wait(created.run_id, { timeout: 60_000 });
    const mcp = statSync(join(stateDir(created.run_id), 'mcp.json'));
    expect(mcp.isFile()).toBe(true);
    expect(mcp.mode & 0o777).toBe(0o600);
    if (isRoot) expect(mcp.uid).not.toBe(0);
  }, 90_000);

  it('cancel ends the sandboxed harness, the proxy bridge in front of it and everything it started', async () => {
    const created = await t.client.runs.create({ prompt: `${DEFAULT_SCRIPT.hangOn} please`, config: { harness: claude } });
    const dir = join(t.workDir, created.run_id);
    await expect.poll(() => existsSync(dir) && processesIn(dir).length > 0, { timeout: 30_000, interval: 50 }).toBe(true);
    await expect.poll(() => model.agentTurns().some((r) => JSON.stringify(r.body['messages']).includes(DEFAULT_SCRIPT.hangOn!)), { timeout: 30_000, interval: 50 }).toBe(true);
    await t.client.runs.cancel(created.run_id);
    const run = await t.client.runs.wait(created.run_id, { timeout: 30_000 });
    expect(run.state).toBe('CANCELLED');
    await expect.poll(() => processesIn(dir).length, { timeout: 10_000, interval: 50 }).toBe(0);
  }, 60_000);
});
