import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentRunsClient, APIError, APIResponseValidationError, InternalServerError, NotFoundError, PermissionDeniedError } from '../src/index.js';

const RUN = { run_id: 'run_1', task_id: 'run_1', title: 't', state: 'QUEUED', prompt: 'p', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };

/** Writes 64 KiB every few milliseconds until the client goes away. */
function endless(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'text/plain' });
  const chunk = 'x'.repeat(64 * 1024);
  const timer = setInterval(() => res.write(chunk), 5);
  res.on('close', () => clearInterval(timer));
}

describe('response size bounds', () => {
  let server: Server | undefined;
  let client: AgentRunsClient | undefined;
  afterEach(async () => {
    await client?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  let origin = '';
  async function serve(handler: (path: string, res: ServerResponse) => void): Promise<{ hits: string[] }> {
    const hits: string[] = [];
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      handler(req.url ?? '', res);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const baseURL = `${origin}/api/v1`;
    client = new AgentRunsClient({ baseURL, apiKey: 'k', maxRetries: 2, timeout: 20_000, maxResponseSize: 1024 * 1024, env: {} });
    return { hits };
  }

  it('fails a success whose body is longer than maxResponseSize, naming the option, without retrying', async () => {
    const { hits } = await serve((_path, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...RUN, prompt: 'p'.repeat(2 * 1024 * 1024) }));
    });
    const error = await client!.runs.get('run_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIResponseValidationError);
    expect((error as Error).message).toMatch(/longer than 1048576 bytes.*maxResponseSize/);
    expect(hits).toHaveLength(1);
  });

  it('reads a body within maxResponseSize', async () => {
    await serve((_path, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...RUN, prompt: 'p'.repeat(512 * 1024) }));
    });
    expect((await client!.runs.get('run_1')).prompt).toHaveLength(512 * 1024);
  });

  it('reports an error whose body never ends from its first 64 KiB, without waiting for the rest', async () => {
    await serve((_path, res) => endless(res, 500));
    const started = Date.now();
    const error = await client!.runs.get('run_1', { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(String((error as APIError).message).length).toBeLessThan(70 * 1024);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports an error whose body is longer than maxResponseSize as the error it is', async () => {
    await serve((_path, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('n'.repeat(4096));
    });
    const small = client!.withOptions({ maxResponseSize: 1024 });
    const error = await small.runs.get('run_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    await small.close();
  });

  it('reports a refused event stream whose body never ends, without waiting for the rest', async () => {
    await serve((_path, res) => endless(res, 403));
    const started = Date.now();
    const events = client!.runs.events('run_1')[Symbol.asyncIterator]();
    const error = await events.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports a refused event stream whose body stops coming, once the timeout has passed', async () => {
    await serve((_path, res) => {
      res.writeHead(403, { 'content-type': 'text/plain' });
      // A start, then nothing: the connection stays open.
      res.write('forbidden, and then');
    });
    const slow = client!.withOptions({ timeout: 300 });
    const started = Date.now();
    const error = await slow.runs.events('run_1')[Symbol.asyncIterator]().next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as APIError).message).toContain('forbidden, and then');
    expect(Date.now() - started).toBeLessThan(5000);
    await slow.close();
  });

  it('reports a refused download whose body never ends, without waiting for the rest', async () => {
    await serve((path, res) => {
      if (path !== '/api/v1/agent/artifacts/art_1') return endless(res, 403);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          artifact_uid: 'art_1',
          artifact_type: 'FILE',
          created_at: '2026-01-01T00:00:00Z',
          data: { content_type: 'text/plain', download_url: `${origin}/files/a.txt?sig=s`, expires_at: '2026-01-01T01:00:00Z', filename: 'a.txt' },
        }),
      );
    });
    const started = Date.now();
    const chunks: Buffer[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _encoding, callback) => (chunks.push(chunk), callback()) });
    const error = await client!.artifacts.download('art_1', { to: sink }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(chunks).toHaveLength(0);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
