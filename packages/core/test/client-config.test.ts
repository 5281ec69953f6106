import { describe, expect, it } from 'vitest';
import { AgentRunsClient, ClientConfigError, DEFAULT_BASE_URL, isLoopbackHost } from '../src/index.js';
import { useFaultServer } from './support/use-fault-server.js';

describe('configuration', () => {
  it('defaults to the public service', () => {
    expect(new AgentRunsClient({ env: {} }).baseURL).toBe(DEFAULT_BASE_URL);
  });

  it('reads AGENT_RUNS_* before the public service’s variables', () => {
    const client = new AgentRunsClient({
      env: { AGENT_RUNS_BASE_URL: 'https://a.example/api/v1', OZ_API_BASE_URL: 'https://b.example/api/v1' },
    });
    expect(client.baseURL).toBe('https://a.example/api/v1');
  });

  it('falls back to OZ_API_BASE_URL and WARP_API_KEY', () => {
    const client = new AgentRunsClient({ env: { OZ_API_BASE_URL: 'https://b.example/api/v1', WARP_API_KEY: 'k' } });
    expect(client.baseURL).toBe('https://b.example/api/v1');
    expect(client.hasApiKey).toBe(true);
  });

  it('refuses to send a key over plain http to a remote host', () => {
    expect(() => new AgentRunsClient({ baseURL: 'http://runs.example.com/api/v1', apiKey: 'k', env: {} })).toThrow(
      ClientConfigError,
    );
  });

  it('allows plain http to a remote host when the caller says so', () => {
    expect(
      () => new AgentRunsClient({ baseURL: 'http://10.0.0.2/api/v1', apiKey: 'k', allowInsecureHttp: true, env: {} }),
    ).not.toThrow();
  });

  it('allows plain http to a remote host when AGENT_RUNS_ALLOW_INSECURE_HTTP=1', () => {
    const env = { AGENT_RUNS_ALLOW_INSECURE_HTTP: '1' };
    expect(() => new AgentRunsClient({ baseURL: 'http://10.0.0.2/api/v1', apiKey: 'k', env })).not.toThrow();
  });

  it('refuses a maxResponseSize that is not a non-negative number, naming it', () => {
    expect(() => new AgentRunsClient({ maxResponseSize: -1, env: {} })).toThrow(/maxResponseSize must be a non-negative number, got -1/);
  });

  it('knows the loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '127.8.9.1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['10.0.0.1', 'example.com', '128.0.0.1'].some(isLoopbackHost)).toBe(false);
  });

  it('rejects a base URL that is not a URL, naming what is valid', () => {
    expect(() => new AgentRunsClient({ baseURL: 'app.example', env: {} })).toThrow(/absolute http\(s\) URL/);
  });
});

describe('requests on the wire', () => {
  const logs: string[] = [];
  const ctx = useFaultServer({
    source: 'CLI',
    defaultHeaders: { 'x-team': 'alpha' },
    logLevel: 'debug',
    logger: { debug: (...a) => logs.push(JSON.stringify(a)), info() {}, warn() {}, error() {} },
  });

  it('sends the key, the caller source, default and per-request headers', async () => {
    await ctx.client.runs.list({}, { headers: { 'x-request': '1' } });
    const headers = ctx.server.requests[0]!.headers;
    expect(headers.authorization).toBe('Bearer test-key');
    expect(headers['x-agent-runs-source']).toBe('CLI');
    expect(headers['x-team']).toBe('alpha');
    expect(headers['x-request']).toBe('1');
    expect(headers['user-agent']).toMatch(/^agent-runs-core\//);
  });

  it('redacts the key in debug logs', async () => {
    await ctx.client.runs.list();
    expect(logs.join('\n')).toContain('agent-runs: GET');
    expect(logs.join('\n')).not.toContain('test-key');
  });

  it('repeats the state parameter for several states', async () => {
    await ctx.client.runs.list({ state: ['FAILED', 'ERROR'], limit: 5 });
    expect(ctx.server.requests[0]!.query.getAll('state')).toEqual(['FAILED', 'ERROR']);
  });

  it('gives raw access to status and headers', async () => {
    const { data, response } = await ctx.client.runs.list().withResponse();
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(data.runs).toEqual([]);
  });

  it('reaches endpoints it does not wrap through request()', async () => {
    const { response } = await ctx.client
      .request({ method: 'GET', path: '/agent/runs/none/conversation', maxRetries: 0 })
      .withResponse()
      .catch((e: { status: number }) => ({ response: { status: e.status } }));
    expect(response.status).toBe(404);
    expect(ctx.server.requests[0]!.path).toBe('/api/v1/agent/runs/none/conversation');
  });
});
