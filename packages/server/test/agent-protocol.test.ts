import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerOptions } from '../src/index.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const root = mkdtempSync(join(tmpdir(), 'agent-runs-protocol-'));
const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});

// A real agent: a shell script that uses every part of the protocol.
const AGENT = `#!/bin/sh
set -eu
prompt=$(cat)
printf '%s|%s|%s\\n' "$AGENT_RUNS_EXECUTION" "$(pwd)" "$(cat "$AGENT_RUNS_FOLLOWUP_FILE")" >> history.log
cp "$AGENT_RUNS_CONVERSATION_FILE" "conversation-$AGENT_RUNS_EXECUTION.jsonl"
ls "$AGENT_RUNS_ATTACHMENTS_DIR" > "attachments-$AGENT_RUNS_EXECUTION.txt"
printf 'bytes \\000\\001\\377 of %s\\n' "$prompt" > "$AGENT_RUNS_ARTIFACTS_DIR/result.bin"
case "$prompt" in *big*) head -c 5000 /dev/zero > "$AGENT_RUNS_ARTIFACTS_DIR/big.dat" ;; esac
echo '{"type":"PULL_REQUEST","url":"https://github.com/acme/app/pull/7","branch":"fix/parser"}' >> "$AGENT_RUNS_REPORT_FILE"
echo 'this is not json' >> "$AGENT_RUNS_REPORT_FILE"
echo '{"type":"PULL_REQUEST","url":"javascript:alert(1)","branch":"x"}' >> "$AGENT_RUNS_REPORT_FILE"
echo "{\\"type\\":\\"RESULT\\",\\"message\\":\\"execution $AGENT_RUNS_EXECUTION done\\"}" >> "$AGENT_RUNS_REPORT_FILE"
`;

async function serverWithAgent(options: ServerOptions = {}): Promise<TestServer & { workDir: string }> {
  const dir = mkdtempSync(join(root, 'server-'));
  const script = join(dir, 'agent.sh');
  writeFileSync(script, AGENT);
  const workDir = join(dir, 'work');
  const t = await startTestServer({ executor: 'command', command: `sh '${script}'`, workDir, commandTimeoutMs: 20_000, ...options });
  servers.push(t);
  return { ...t, workDir };
}

const json = { 'content-type': 'application/json' };

describe('the command agent protocol', () => {
  it('turns a reported pull request and a written file into artifacts whose bytes download exactly', async () => {
    const t = await serverWithAgent();
    const { run_id } = await t.client.runs.create({ prompt: 'Fix the parser' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    expect(run.status_message?.message).toBe('execution 1 done');
    const types = (run.artifacts as { artifact_type: string }[]).map((a) => a.artifact_type);
    expect(types).toEqual(['PULL_REQUEST', 'FILE']);
    expect(run.artifacts![0]).toMatchObject({ data: { url: 'https://github.com/acme/app/pull/7', branch: 'fix/parser' } });
    const file = run.artifacts![1] as { data: { artifact_uid: string; filename: string; size_bytes: number } };
    expect(file.data).toMatchObject({ filename: 'result.bin', filepath: 'result.bin', mime_type: 'application/octet-stream' });

    const got = await t.raw(`/api/v1/agent/artifacts/${file.data.artifact_uid}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ artifact_type: 'FILE', artifact_uid: file.data.artifact_uid, data: { filename: 'result.bin' } });
    expect(Date.parse(got.body.data.expires_at)).toBeGreaterThan(Date.now());
    // The link needs no key.
    const download = await fetch(got.body.data.download_url);
    expect(download.status).toBe(200);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes).toEqual(Buffer.concat([Buffer.from('bytes '), Buffer.from([0, 1, 255]), Buffer.from(' of Fix the parser\n')]));
    expect(download.headers.get('content-disposition')).toContain('attachment');
    expect(file.data.size_bytes).toBe(bytes.length);
  });

  it('skips report lines that are not JSON or not valid, with a note in the run output', async () => {
    const t = await serverWithAgent();
    const { run_id } = await t.client.runs.create({ prompt: 'Notes please' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    const page = await (await fetch(run.session_link!)).text();
    expect(page).toContain('report line 2 is not JSON; skipped.');
    expect(page).toContain('report line 3 was skipped: url: must be an http(s) URL');
    expect((run.artifacts as { data: { url?: string } }[]).some((a) => a.data.url?.startsWith('javascript'))).toBe(false);
  });

  it('runs a follow-up to a finished run again in the same directory, with both messages in the conversation', async () => {
    const t = await serverWithAgent();
    const { run_id } = await t.client.runs.create({ prompt: 'Fix the parser' });
    const first = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(first.state).toBe('SUCCEEDED');

    const followup = await t.raw(`/api/v1/agent/runs/${run_id}/followups`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ message: 'Now add a test', mode: 'normal' }),
    });
    expect(followup.status).toBe(200);
    expect(followup.body).toMatchObject({ run_id, state: 'QUEUED' });
    const second = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(second.state).toBe('SUCCEEDED');
    expect(second.status_message?.message).toBe('execution 2 done');
    expect(Date.parse(second.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
    // The first execution's output stays, the second's follows it.
    const page = await (await fetch(second.session_link!)).text();
    expect(page.indexOf('report line 2 is not JSON')).toBeLessThan(page.indexOf('[agent-runs] Execution 2, answering 1 follow-up(s).'));
    expect(page.indexOf('[agent-runs] Execution 2')).toBeGreaterThan(0);

    const history = readFileSync(join(t.workDir, run_id, 'history.log'), 'utf8').trim().split('\n');
    expect(history).toEqual([`1|${join(t.workDir, run_id)}|`, `2|${join(t.workDir, run_id)}|Now add a test`]);
    // The agent's conversation file held the prompt, the first result and the follow-up.
    const agentConversation = readFileSync(join(t.workDir, run_id, 'conversation-2.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(agentConversation.map((e) => [e.kind, e.text])).toEqual([
      ['prompt', 'Fix the parser'],
      ['result', 'execution 1 done'],
      ['followup', 'Now add a test'],
    ]);

    const conversation = await t.raw(`/api/v1/agent/runs/${run_id}/conversation`);
    expect(conversation.status).toBe(200);
    const texts = conversation.body.steps.map((s: { messages: { role: string; content: { text: string }[] }[] }) =>
      s.messages.map((m) => `${m.role}: ${m.content[0]!.text}`),
    );
    expect(texts).toEqual([
      ['user: Fix the parser', 'assistant: execution 1 done'],
      ['user: Now add a test', 'assistant: execution 2 done'],
    ]);
    // Each execution's artifacts are kept: two pull requests and two files now.
    expect(second.artifacts).toHaveLength(4);

    const transcript = await t.raw(`/api/v1/agent/runs/${run_id}/transcript`, { redirect: 'manual' });
    expect(transcript.status).toBe(302);
    const raw = await (await fetch(transcript.headers.get('location')!)).text();
    expect(raw).toContain('"text":"Now add a test"');
  });

  it('gives the run its attachments and hands them back as handoff attachments', async () => {
    const t = await serverWithAgent();
    const { run_id } = await t.client.runs.create({
      prompt: 'Read the spec',
      attachments: [{ file_name: 'spec.md', mime_type: 'text/markdown', data: Buffer.from('# Spec\n').toString('base64') }],
    } as never);
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect([run.state, run.status_message?.message]).toEqual(['SUCCEEDED', 'execution 1 done']);
    expect(readFileSync(join(t.workDir, run_id, 'attachments-1.txt'), 'utf8').trim()).toBe('spec.md');
    const handoff = await t.raw(`/api/v1/agent/runs/${run_id}/handoff/attachments`);
    expect(handoff.status).toBe(200);
    expect(handoff.body.attachments).toHaveLength(1);
    expect(handoff.body.attachments[0]).toMatchObject({ filename: 'spec.md', mime_type: 'text/markdown' });
    expect(await (await fetch(handoff.body.attachments[0].download_url)).text()).toBe('# Spec\n');
  });

  it('skips a file over the per-file limit with a note, keeping the rest', async () => {
    const t = await serverWithAgent({ maxArtifactBytes: 1000 });
    const { run_id } = await t.client.runs.create({ prompt: 'Make something big' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    const files = (run.artifacts as { artifact_type: string; data: { filename?: string } }[]).filter((a) => a.artifact_type === 'FILE');
    expect(files.map((f) => f.data.filename)).toEqual(['result.bin']);
    const page = await (await fetch(run.session_link!)).text();
    expect(page).toContain('artifact big.dat is 5000 bytes, over the limit of 1000 bytes per file; skipped.');
  });
});

describe('download links', () => {
  it('answers 403 to a tampered link and serves nothing', async () => {
    const t = await serverWithAgent();
    const { run_id } = await t.client.runs.create({ prompt: 'Fix it' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    const uid = (run.artifacts![1] as { data: { artifact_uid: string } }).data.artifact_uid;
    const { body } = await t.raw(`/api/v1/agent/artifacts/${uid}`);
    const url = new URL(body.data.download_url);
    const signature = url.searchParams.get('signature')!;
    url.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    const tampered = await fetch(url);
    expect(tampered.status).toBe(403);
    expect(await tampered.text()).not.toContain('bytes');
    // A link for one artifact does not open another path.
    const other = new URL(body.data.download_url);
    other.pathname = `/downloads/transcripts/${run_id}`;
    expect((await fetch(other)).status).toBe(403);
  });

  it('answers 403 to an expired link', async () => {
    const t = await serverWithAgent({ downloadLinkTtlMs: 1 });
    const { run_id } = await t.client.runs.create({ prompt: 'Fix it' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    const uid = (run.artifacts![1] as { data: { artifact_uid: string } }).data.artifact_uid;
    const { body } = await t.raw(`/api/v1/agent/artifacts/${uid}`);
    await new Promise((r) => setTimeout(r, 1100));
    const expired = await fetch(body.data.download_url);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { detail: string }).detail).toMatch(/expired/);
  });
});

describe('the example agent', () => {
  it('runs as documented: a pull request, a plan, a file and a result, then a follow-up', async () => {
    const script = new URL('../../../examples/agents/example-agent.sh', import.meta.url).pathname;
    const t = await startTestServer({ executor: 'command', command: `sh '${script}'`, workDir: join(root, 'example-work') });
    servers.push(t);
    const { run_id } = await t.client.runs.create({ prompt: 'Tidy the README' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    expect(run.status_message?.message).toBe('Done: execution 1 wrote work-log.txt');
    expect((run.artifacts as { artifact_type: string }[]).map((a) => a.artifact_type)).toEqual(['PULL_REQUEST', 'PLAN', 'FILE']);
    await t.raw(`/api/v1/agent/runs/${run_id}/followups`, { method: 'POST', headers: json, body: JSON.stringify({ message: 'And the changelog' }) });
    const again = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(again.status_message?.message).toBe('Done: execution 2 wrote work-log.txt');
    expect(readFileSync(join(root, 'example-work', run_id, 'work-log.txt'), 'utf8')).toBe('Tidy the README\nAnd the changelog\n');
  });
});
