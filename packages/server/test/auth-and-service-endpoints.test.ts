import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, AuthenticationError, RunItemSchema } from '@agent-runs/core';
import { startServer } from '../src/index.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ apiKeys: [{ key: 'key-of-alice-123', principal: 'alice' }, { key: 'key-of-bob-45678', principal: 'bob' }] });
});
afterAll(() => t.close());

describe('authentication', () => {
  it('makes the principal of the key the creator of the run', async () => {
    const bob = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: 'key-of-bob-45678' });
    const { run_id } = await bob.runs.create({ prompt: 'as bob [simulate 10ms]' });
    expect((await bob.runs.get(run_id)).creator).toMatchObject({ uid: 'bob', type: 'user' });
    await bob.close();
  });

  it('refuses a wrong key with an AuthenticationError and a WWW-Authenticate header', async () => {
    const stranger = new AgentRunsClient({ baseURL: t.server.baseURL, apiKey: 'not-a-key-at-all' });
    await expect(stranger.runs.list()).rejects.toBeInstanceOf(AuthenticationError);
    await stranger.close();
    expect((await t.raw('/api/v1/agent/runs', { key: null })).headers.get('www-authenticate')).toBe('Bearer');
  });

  it('accepts requests without a key in no-auth mode on loopback', async () => {
    const open = await startServer({ storage: 'memory', noAuth: true, quiet: true });
    const res = await fetch(`${open.baseURL}/agent/runs`);
    expect(res.status).toBe(200);
    await open.close();
  });

  it('refuses no-auth mode on a non-loopback address', async () => {
    await expect(startServer({ storage: 'memory', noAuth: true, host: '0.0.0.0', quiet: true })).rejects.toThrow(/loopback/);
  });

  it('generates a key when none is configured and prints it once', async () => {
    const lines: string[] = [];
    const server = await startServer({ storage: 'memory', log: (l) => lines.push(l) });
    expect(lines.filter((l) => l.includes(server.apiKey))).toHaveLength(1);
    expect((await fetch(`${server.baseURL}/agent/runs`, { headers: { authorization: `Bearer ${server.apiKey}` } })).status).toBe(200);
    await server.close();
  });
});

describe('service endpoints', () => {
  it('serves an OpenAPI document built from the contract schemas', async () => {
    const res = await t.raw('/api/v1/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/agent/run',
        '/agent/runs',
        '/agent/runs/{runId}',
        '/agent/runs/{runId}/cancel',
        '/agent/runs/{runId}/followups',
        '/agent/artifacts/{artifactUid}',
        '/agent/sessions/{sessionUuid}/redirect',
        '/agent/conversations/{conversationId}/redirect',
      ]),
    );
    expect(JSON.stringify(res.body)).not.toContain('#/definitions/');
    expect(res.body.paths['/agent/runs/{runId}/events'].get['x-agent-runs-extension']).toBe(true);
    expect(res.body.paths['/agent/runs/{runId}/output'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RunOutputPage',
    });
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/agent/schedules', '/agent/schedules/{scheduleId}/pause', '/agent/environments', '/agent', '/agent/identities/{uid}']),
    );
    expect(res.body.components.schemas.ScheduleCreateRequest.required).toEqual(['name', 'cron_schedule']);
    expect(Object.keys(res.body.components.schemas.RunItem.properties)).toEqual(expect.arrayContaining(Object.keys(RunItemSchema.shape)));
    const params = res.body.paths['/agent/runs'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['limit', 'cursor', 'sort_by', 'state', 'q', 'created_after']));
    expect(params).toEqual(expect.arrayContaining(['execution_location', 'schedule_id', 'ancestor_run_id', 'artifact_type', 'metadata', 'executor', 'automation_id', 'factory_uid', 'skill']));
    const metadata = res.body.paths['/agent/runs'].get.parameters.find((p: { name: string }) => p.name === 'metadata');
    expect(metadata).toMatchObject({ style: 'deepObject', explode: true });
    // As published: creates of schedules and named agents answer 201; the redirects need no key.
    expect(Object.keys(res.body.paths['/agent/schedules'].post.responses)).toContain('201');
    expect(Object.keys(res.body.paths['/agent/identities'].post.responses)).toContain('201');
    expect(res.body.paths['/agent/sessions/{sessionUuid}/redirect'].get.security).toEqual([]);
    expect(res.body.paths['/agent/conversations/{conversationId}/redirect'].get.security).toEqual([]);
    expect(res.body.paths['/agent/conversations/{conversationId}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ConversationResponse',
    });
    const create = res.body.components.schemas.RunAgentRequest.properties;
    expect(Object.keys(create)).toEqual(
      expect.arrayContaining(['metadata', 'mode', 'attachments', 'conversation_id', 'parent_run_id', 'interactive', 'agent_identity_uid', 'on_behalf_of']),
    );
  });

  it('answers /healthz without a key', async () => {
    const res = await t.raw('/healthz', { key: null });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
  });
});
