import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInByHttp } from '../../packages/server/test/dashboard/dashboard-support.js';
import { API_KEY, HOSTILE_VERSION, startWorkerServer } from './worker-server.js';

let t: Awaited<ReturnType<typeof startWorkerServer>>;
let cookie: string;
beforeAll(async () => {
  t = await startWorkerServer();
  ({ cookie } = await signInByHttp(t.server.url, API_KEY));
});
afterAll(() => t?.close());

const page = async (path: string) => {
  const res = await fetch(`${t.server.url}${path}`, { headers: { cookie }, redirect: 'manual' });
  return { status: res.status, text: await res.text() };
};

describe('the dashboard’s Workers page', () => {
  it('says when no worker is connected, and is in the navigation', async () => {
    const { status, text } = await page('/workers');
    expect(status).toBe(200);
    expect(text).toContain('No self-hosted worker is connected.');
    expect(text).toContain('<a href="/workers" aria-current="page">Workers</a>');
    expect((await page('/')).text).toContain('<a href="/workers">Workers</a>');
  });

  it('lists a worker connected over the worker protocol, its announced text escaped', async () => {
    expect((await t.connectWorker({ version: HOSTILE_VERSION, harnesses: ['claude', '<b>codex</b>'] })).status).toBe(200);
    const { status, text } = await page('/workers');
    expect(status).toBe(200);
    expect(text).toMatch(/<tr><td><code>gpu<\/code><\/td><td><code>gpu-box-1<\/code><\/td><td>0\/4<\/td><td><time datetime="[^"]+" title="[^"]+" data-age>/);
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(text).toContain('claude, &lt;b&gt;codex&lt;/b&gt;');
    expect(text).not.toContain('<img src=x');
    expect(text).not.toContain('<b>codex');
  });

  it('shows a run’s worker_host on its page', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Train the model', config: { worker_host: 'gpu' } });
    const { text } = await page(`/runs/${run_id}`);
    expect(text).toContain('<dt>Worker</dt><dd><a href="/workers"><code>gpu</code></a></dd>');
    await t.client.runs.cancel(run_id);
    const { run_id: other } = await t.client.runs.create({ prompt: 'Anywhere [simulate 10ms]' });
    expect((await page(`/runs/${other}`)).text).not.toContain('<dt>Worker</dt>');
  });

  it('sends a browser that is not signed in to sign in', async () => {
    const res = await fetch(`${t.server.url}/workers`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/sign-in/);
  });
});
