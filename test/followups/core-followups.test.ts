import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import OzAPI from 'oz-agent-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  ArtifactNotDownloadableError,
  DownloadWriteError,
  NotFoundError,
  PermissionDeniedError,
  RequestValidationError,
  type RunItem,
} from '@agent-runs/core';
import { AGENT_KEY, FILE_BYTES, startAgentServer } from './followup-agent-server.js';

let t: Awaited<ReturnType<typeof startAgentServer>>;
let finished: RunItem;
const out = mkdtempSync(join(tmpdir(), 'agent-runs-download-'));
beforeAll(async () => {
  t = await startAgentServer();
  finished = await t.client.runs.createAndWait({ prompt: 'Fix the parser' }, { pollInterval: 20 });
});
afterAll(async () => {
  await t.close();
  rmSync(out, { recursive: true, force: true });
});

const fileUid = (run: RunItem) =>
  (run.artifacts as { artifact_type: string; data: { artifact_uid?: string } }[]).find((a) => a.artifact_type === 'FILE')!.data.artifact_uid!;

describe('a command agent run through the core client', () => {
  it('ends with the pull request and the file it made', () => {
    expect(finished.state).toBe('SUCCEEDED');
    expect(finished.status_message?.message).toBe('execution 1 opened a pull request');
    expect(finished.artifacts).toEqual([
      expect.objectContaining({ artifact_type: 'PULL_REQUEST', data: { url: 'https://github.com/acme/app/pull/42', branch: 'agent/fix-parser' } }),
      expect.objectContaining({ artifact_type: 'FILE', data: expect.objectContaining({ filename: 'report.bin', size_bytes: FILE_BYTES.length }) }),
    ]);
  });

  it('downloads the file’s exact bytes to a path and to a stream, reporting progress', async () => {
    const uid = fileUid(finished);
    const progress: number[] = [];
    const result = await t.client.artifacts.download(uid, { to: join(out, 'report.bin'), onProgress: (p) => void progress.push(p.received) });
    expect(readFileSync(join(out, 'report.bin'))).toEqual(FILE_BYTES);
    expect(result).toMatchObject({ bytes: FILE_BYTES.length, path: join(out, 'report.bin'), artifact: { artifact_type: 'FILE' } });
    expect(progress.at(-1)).toBe(FILE_BYTES.length);

    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on('data', (c: Buffer) => chunks.push(c));
    await t.client.artifacts.download(uid, { to: sink });
    expect(Buffer.concat(chunks)).toEqual(FILE_BYTES);
  });

  it('downloads into a folder that does not exist yet by making it', async () => {
    const to = join(out, 'new', 'folder', 'report.bin');
    await t.client.artifacts.download(fileUid(finished), { to });
    expect(readFileSync(to)).toEqual(FILE_BYTES);
  });

  it('names a local problem plainly, not as a network failure', async () => {
    writeFileSync(join(out, 'a-file'), 'in the way');
    const to = join(out, 'a-file', 'report.bin');
    const error = await t.client.artifacts.download(fileUid(finished), { to }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadWriteError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(`Could not save the download to ${to}: a file is in the way of a folder on that path.`);
  });

  it('fetches the same bytes through the official SDK', async () => {
    const sdk = new OzAPI({ baseURL: t.server.baseURL, apiKey: AGENT_KEY, maxRetries: 0 });
    const run = await sdk.agent.runs.retrieve(finished.run_id);
    const uid = fileUid(run as RunItem);
    // This SDK version has no getArtifact; its generic get reaches the same endpoint.
    const artifact = (await sdk.get(`/agent/artifacts/${uid}`)) as { data: { download_url: string } };
    const bytes = Buffer.from(await (await fetch(artifact.data.download_url)).arrayBuffer());
    expect(bytes).toEqual(FILE_BYTES);
  });

  it('gets the artifact with withResponse()', async () => {
    const { data, response } = await t.client.artifacts.get(fileUid(finished)).withResponse();
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ artifact_type: 'FILE', data: { filename: 'report.bin', content_type: 'application/octet-stream' } });
  });

  it('runs a follow-up to the finished run again in the same directory, the conversation holding both messages', async () => {
    const run = await t.client.runs.createAndWait({ prompt: 'Write the docs' }, { pollInterval: 20 });
    const answer = await t.client.runs.followup(run.run_id, { message: 'Now the changelog', mode: 'normal' });
    expect(answer).toMatchObject({ run_id: run.run_id, state: 'QUEUED' });
    const again = await t.client.runs.wait(run.run_id, { pollInterval: 20 });
    expect(again.status_message?.message).toBe('execution 2 opened a pull request');
    const dir = join(t.workDir, run.run_id);
    expect(readFileSync(join(dir, 'executions.log'), 'utf8')).toBe(`1|${dir}|\n2|${dir}|Now the changelog\n`);

    const conversation = await t.client.runs.conversation(run.run_id);
    const users = conversation.steps.flatMap((s) => s.messages.filter((m) => m.role === 'user').map((m) => (m.content[0] as { text: string }).text));
    expect(users).toEqual(['Write the docs', 'Now the changelog']);
    const transcript = await t.client.runs.transcript(run.run_id);
    expect(transcript.split('\n').filter(Boolean).map((l) => JSON.parse(l).kind)).toEqual(['prompt', 'result', 'followup', 'result', 'output']);
  });

  it('lists handoff attachments', async () => {
    const { data, response } = await t.client.runs.handoffAttachments(finished.run_id).withResponse();
    expect(response.status).toBe(200);
    expect(data.attachments).toEqual([]);
  });
});

describe('core errors for follow-ups and artifacts', () => {
  it('refuses an empty message before sending, naming the field', async () => {
    const error = await t.client.runs.followup(finished.run_id, { message: '  ' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).message).toBe('Invalid follow-up: message: is required: a non-empty message for the run');
  });

  it('throws NotFoundError for an unknown run or artifact', async () => {
    await expect(t.client.runs.followup('no-such-run', { message: 'hi' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(t.client.runs.conversation('no-such-run')).rejects.toBeInstanceOf(NotFoundError);
    await expect(t.client.runs.transcript('no-such-run')).rejects.toBeInstanceOf(NotFoundError);
    await expect(t.client.artifacts.download('no-such-artifact', { to: join(out, 'x') })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('throws PermissionDeniedError for an expired link and writes nothing', async () => {
    const short = await startAgentServer({ downloadLinkTtlMs: 1 });
    try {
      const run = await short.client.runs.createAndWait({ prompt: 'Fix it' }, { pollInterval: 20 });
      const artifact = await short.client.artifacts.get(fileUid(run));
      await new Promise((r) => setTimeout(r, 1100));
      const sink = new PassThrough();
      let written = 0;
      sink.on('data', (c: Buffer) => (written += c.length));
      const url = (artifact.data as { download_url: string }).download_url;
      const download = (short.client as unknown as { download: (u: string, t: object) => Promise<unknown> }).download;
      const error = await download(url, { to: sink }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect((error as Error).message).toMatch(/expired/);
      expect((error as Error).message).not.toContain('signature=');
      expect(written).toBe(0);
    } finally {
      await short.close();
    }
  });

  it('refuses to download a plan', async () => {
    const sim = await startAgentServer({ executor: 'simulated', simulatedDurationMs: 10 });
    try {
      const run = await sim.client.runs.createAndWait({ prompt: '[simulate artifact plan]' }, { pollInterval: 20 });
      const uid = (run.artifacts![0] as { data: { artifact_uid: string } }).data.artifact_uid;
      await expect(sim.client.artifacts.download(uid, { to: join(out, 'plan') })).rejects.toBeInstanceOf(ArtifactNotDownloadableError);
    } finally {
      await sim.close();
    }
  });
});
