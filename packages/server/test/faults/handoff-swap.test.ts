import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentsDir } from '../../src/executors/agent-protocol.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const workDir = mkdtempSync(join(tmpdir(), 'agent-runs-handoff-swap-'));
const outside = mkdtempSync(join(tmpdir(), 'agent-runs-handoff-secret-'));
const secret = join(outside, 'server-secret.txt');
writeFileSync(secret, 'the server user’s secret\n');

let t: TestServer;
beforeAll(async () => {
  // The command agent does nothing: the run's attachment is what the server wrote for it.
  t = await startTestServer({ executor: 'command', command: 'true', workDir });
});
afterAll(async () => {
  await t.close();
  rmSync(workDir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('a handoff file the agent swaps after it was listed', () => {
  // Reproduction: list the handoff files, then (as an agent process left behind would) put a
  // link to a file of the server's user at the listed name, and follow the signed link.
  it('is not followed through a link to a file outside the run', async () => {
    const { run_id } = await t.client.runs.create({
      prompt: 'Read the notes',
      attachments: [{ file_name: 'notes.txt', mime_type: 'text/plain', data: Buffer.from('notes\n').toString('base64') }],
    });
    await t.client.runs.wait(run_id, { pollInterval: 20 });
    const handoff = await t.raw(`/api/v1/agent/runs/${run_id}/handoff/attachments`);
    const [listed] = handoff.body.attachments as { filename: string; download_url: string }[];
    expect(listed?.filename).toBe('notes.txt');

    const path = join(attachmentsDir(workDir, run_id), 'notes.txt');
    rmSync(path);
    symlinkSync(secret, path);
    const res = await fetch(listed!.download_url);
    const body = await res.text();
    expect(body).not.toContain('secret');
    expect(res.status).toBe(404);
  });
});
