import { existsSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { AgentRunsClient } from '@agent-runs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempTree } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

/**
 * Reproduction (issue 20, items 1 and 2): the agent does what its prompt says, in sh.
 * - `snoop <run id>`: print another run's mcp.json, attachment and conversation, list its
 *   directory, and write into its directory and report file.
 * - `fifo-report`: swap its own report file for a FIFO, which once hung the server in open().
 * - `link-mcp <path>`: leave mcp.json as a link to a file outside the run, which the server
 *   overwrote when it wrote mcp.json again for the next execution.
 * - `wait`: stay until cancelled.
 * A follow-up execution takes its verb from the follow-up.
 */
const AGENT = `if [ "$AGENT_RUNS_EXECUTION" = 1 ]; then read -r verb arg; else read -r verb arg < "$AGENT_RUNS_FOLLOWUP_FILE"; fi
proto() { echo "$(dirname "$AGENT_RUNS_WORK_DIR")/.agent-runs/$1"; }
case "$verb" in
  snoop)
    other="$(dirname "$AGENT_RUNS_WORK_DIR")/$arg"
    for f in "$other/mcp.json" "$(proto "$arg")/attachments/notes.txt" "$(proto "$arg")/executions/1/conversation.jsonl"; do
      cat "$f" && echo "READ $f"
    done
    ls "$other" && echo "LISTED"
    echo forged > "$other/forged" && echo "WROTE DIR"
    echo '{"type":"result","text":"forged"}' >> "$(proto "$arg")/executions/1/report.jsonl" && echo "WROTE REPORT"
    echo done ;;
  fifo-report) rm -f "$AGENT_RUNS_REPORT_FILE"; mkfifo "$AGENT_RUNS_REPORT_FILE"; echo planted ;;
  link-mcp) rm -f mcp.json; ln -s "$arg" mcp.json; echo planted ;;
  wait) while :; do sleep 0.2; done ;;
esac
`;

const workRoot = tempTree({}, 'agent-runs-reach-work-');
const victimDir = tempTree({ 'victim.txt': 'untouched\n' }, 'agent-runs-reach-victim-');
let t: TestServer;
let bob: AgentRunsClient;

beforeAll(async () => {
  t = await startTestServer({
    executor: 'command',
    command: AGENT,
    workDir: workRoot,
    sandbox: 'on',
    apiKeys: [
      { principal: 'alice', key: 'alice-key-0123456789' },
      { principal: 'bob', key: 'bob-key-0123456789' },
    ],
  });
  bob = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: 'bob-key-0123456789', maxRetries: 0 });
});
afterAll(() => t?.close());

describe('an agent of one principal and the runs of another (issue 20.1)', () => {
  it("can neither read nor list nor write alice's run, its MCP token, attachment or prompt", async () => {
    const alice = t.client;
    const secretRun = await alice.runs.create({
      prompt: 'wait',
      config: { mcp_servers: { gh: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_alice_only_token' } } } },
      attachments: [{ file_name: 'notes.txt', mime_type: 'text/plain', data: Buffer.from('alice attachment').toString('base64') }],
    });
    const aliceId = secretRun.run_id;
    await expect.poll(() => existsSync(join(workRoot, aliceId, 'mcp.json')), { timeout: 10_000 }).toBe(true);
    const { run_id } = await bob.runs.create({ prompt: `snoop ${aliceId}` });
    await bob.runs.wait(run_id, { pollInterval: 20 });
    const text = JSON.stringify((await t.raw(`/api/v1/agent/runs/${run_id}/output`, { key: 'bob-key-0123456789' })).body);
    expect(text).toContain('done');
    for (const leak of ['ghp_alice_only_token', 'alice attachment', 'READ ', 'LISTED', 'WROTE DIR', 'WROTE REPORT']) expect(text).not.toContain(leak);
    expect(existsSync(join(workRoot, aliceId, 'forged'))).toBe(false);
    await alice.runs.cancel(aliceId);
  });
});

describe('files an agent leaves for the server (issue 20.2)', () => {
  it('a report file swapped for a FIFO is skipped with a note, and the server keeps answering', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'fifo-report' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    const text = JSON.stringify((await t.raw(`/api/v1/agent/runs/${run_id}/output`)).body);
    expect(text).toContain('the report file is not a regular file');
    expect((await fetch(`${t.server.url}/healthz`)).status).toBe(200);
  });

  it('a link left at mcp.json, and a link and a FIFO planted in the next execution, are replaced, not followed', async () => {
    const victim = join(victimDir, 'victim.txt');
    const { run_id } = await t.client.runs.create({ prompt: `link-mcp ${victim}` });
    expect((await t.client.runs.wait(run_id, { pollInterval: 20 })).state).toBe('SUCCEEDED');
    expect(lstatSync(join(workRoot, run_id, 'mcp.json')).isSymbolicLink()).toBe(true);
    // What an agent running as the server's own user (no sandbox, no agent user) could plant for the next execution.
    const next = join(workRoot, '.agent-runs', run_id, 'executions', '2');
    mkdirSync(next, { recursive: true });
    execFileSync('ln', ['-s', victim, join(next, 'conversation.jsonl')]);
    execFileSync('mkfifo', [join(next, 'inbox.jsonl')]);
    await t.client.runs.followup(run_id, { message: 'wait' });
    await expect.poll(async () => (await t.client.runs.get(run_id)).state, { timeout: 10_000 }).toBe('INPROGRESS');
    // Delivering to the running execution's inbox does not block on a FIFO either.
    await t.client.runs.followup(run_id, { message: 'another' }).catch(() => undefined);
    expect((await fetch(`${t.server.url}/healthz`)).status).toBe(200);
    await t.client.runs.cancel(run_id);
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    expect(lstatSync(join(workRoot, run_id, 'mcp.json')).isFile()).toBe(true);
    expect(lstatSync(join(next, 'conversation.jsonl')).isFile()).toBe(true);
  });
});
