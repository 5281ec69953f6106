import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OzAPI from 'oz-agent-sdk';
import {
  AgentIdentitySchema,
  ArtifactResponseSchema,
  ConversationResponseSchema,
  HandoffAttachmentsResponseSchema,
  ListAgentIdentitiesResponseSchema,
  ListEnvironmentsResponseSchema,
  ListRunsResponseSchema,
  RunAgentResponseSchema,
  RunItemSchema,
} from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';
import { z } from 'zod';
import { OpenApiChecker } from '../support/openapi-checker.js';

/**
 * The official TypeScript SDK (the newest on the registry) against the local server: its own
 * calls, and through its own transport the calls the newest SDK makes (POST /agent/runs and
 * the newer list filters), every answer checked against the contract schemas.
 */
describe('the official SDK against the local server', () => {
  let server: RunningServer;
  let sdk: OzAPI;
  let parentId: string;
  let agentUid: string;
  let conversationId: string;
  let checker: OpenApiChecker;

  beforeAll(async () => {
    // The environment, the worker and the named agent the requests name must exist on the server.
    const dir = mkdtempSync(join(tmpdir(), 'agent-runs-sdk-'));
    writeFileSync(join(dir, 'worker-token'), 'sdk-test-worker-token-0123456789');
    writeFileSync(
      join(dir, 'server.json'),
      JSON.stringify({ environments: { 'env-1': {} }, workers: { sdk: { token: { from_file: 'worker-token' }, worker_hosts: ['worker-1'] } } }),
    );
    server = await startServer({ storage: 'memory', quiet: true, simulatedDurationMs: 50, configFile: join(dir, 'server.json') });
    // Every answer the SDK gets is also checked against the OpenAPI document the server serves.
    checker = await OpenApiChecker.load(server.baseURL);
    sdk = new OzAPI({ apiKey: server.apiKey, baseURL: server.baseURL, maxRetries: 0, fetch: checker.fetch });
    agentUid = (await sdk.post<{ uid: string }>('/agent/identities', { body: { name: 'agent-1' } })).uid;
  });
  afterAll(async () => server?.close());

  const config = {
    name: 'nightly-triage',
    model_id: 'claude-4-sonnet',
    base_prompt: 'You are careful.',
    environment_id: 'env-1',
    mcp_servers: {
      github: { url: 'https://mcp.example.com/github', headers: { 'x-team': 'core' } },
      local: { command: 'npx', args: ['some-mcp'], env: { LEVEL: 'debug' } },
      shared: { warp_id: 'mcp-123' },
    },
    computer_use_enabled: false,
    idle_timeout_minutes: 5,
    worker_host: 'worker-1',
  };

  it('creates a run with agent.run (POST /agent/run)', async () => {
    const created = await sdk.agent.run({ prompt: 'Fix the bug in auth.go', config, team: true, title: 'Fix auth' });
    expect(RunAgentResponseSchema.safeParse(created).success).toBe(true);
    expect(created.state).toBe('QUEUED');
    parentId = created.run_id;
    conversationId = (await sdk.agent.runs.retrieve(parentId)).conversation_id!;
  });

  it('creates a run as the newest SDK does (POST /agent/runs) with every new field', async () => {
    const body = {
      prompt: 'Review the plan',
      config: { ...config, harness: { type: 'oz' }, skills: ['o/r:lint'], runner_id: 'runner-1', session_sharing: { public_access: 'VIEWER' } },
      title: 'Plan review',
      team: false,
      metadata: { team: 'core', ticket: 'A-1' },
      mode: 'plan',
      attachments: [{ file_name: 'notes.txt', mime_type: 'text/plain', data: Buffer.from('notes').toString('base64') }],
      conversation_id: conversationId,
      parent_run_id: parentId,
      interactive: false,
      agent_identity_uid: agentUid,
      on_behalf_of: 'user-1',
    };
    const created = await sdk.post('/agent/runs', { body });
    const parsed = RunAgentResponseSchema.parse(created);
    const run = await sdk.agent.runs.retrieve(parsed.run_id);
    expect(RunItemSchema.safeParse(run).success).toBe(true);
    expect(run).toMatchObject({ parent_run_id: parentId, conversation_id: conversationId, metadata: { team: 'core', ticket: 'A-1' } });
  });

  it('retrieves a run that validates against the contract', async () => {
    const run = await sdk.agent.runs.retrieve(parentId);
    const parsed = RunItemSchema.safeParse(run);
    expect(parsed.error).toBeUndefined();
    expect(run.run_id).toBe(parentId);
  });

  it('lists with every filter the newest SDK has', async () => {
    const me = (await sdk.agent.runs.retrieve(parentId)).creator?.uid;
    const filters = {
      ancestor_run_id: parentId,
      created_after: '2019-12-27T18:11:19.117Z',
      created_before: '2999-12-27T18:11:19.117Z',
      creator: me,
      environment_id: 'env-1',
      execution_location: 'LOCAL',
      executor: me,
      limit: 10,
      metadata: { team: 'core' },
      model_id: 'claude-4-sonnet',
      name: 'nightly-triage',
      q: 'review',
      sort_by: 'created_at',
      sort_order: 'asc',
      source: 'API',
      state: ['QUEUED', 'INPROGRESS', 'SUCCEEDED'],
      updated_after: '2019-12-27T18:11:19.117Z',
    };
    const page = await sdk.agent.runs.list(filters as Parameters<typeof sdk.agent.runs.list>[0]);
    expect(ListRunsResponseSchema.safeParse(page).error).toBeUndefined();
    expect(page.runs.map((r) => r.title)).toEqual(['Plan review']);

    // Filters for data this server keeps none of answer an empty page, not an error.
    for (const extra of [
      { artifact_type: 'PULL_REQUEST' },
      { automation_id: 'automation_id' },
      { factory_uid: 'factory_uid' },
      { schedule_id: 'schedule_id' },
      { skill: 'o/r:skill', skill_spec: 'o/r:skill' },
    ]) {
      const empty = await sdk.agent.runs.list(extra as Parameters<typeof sdk.agent.runs.list>[0]);
      expect(ListRunsResponseSchema.parse(empty).runs).toEqual([]);
    }
  });

  it('pages with the cursor it was given', async () => {
    type ListParams = Parameters<typeof sdk.agent.runs.list>[0];
    // sort_by and sort_order are newer than this SDK's types; its transport sends them as given.
    const first = await sdk.agent.runs.list({ limit: 1, sort_by: 'created_at', sort_order: 'asc' } as ListParams);
    expect(first.page_info.has_next_page).toBe(true);
    const second = await sdk.agent.runs.list({ limit: 1, sort_by: 'created_at', sort_order: 'asc', cursor: first.page_info.next_cursor! } as ListParams);
    expect(second.runs[0]!.run_id).not.toBe(first.runs[0]!.run_id);
  });

  it('cancels a run and answers its id as a JSON string', async () => {
    const created = await sdk.agent.run({ prompt: '[simulate succeed 30s] hold on' });
    const cancelled = await sdk.agent.runs.cancel(created.run_id);
    expect(z.string().parse(cancelled)).toBe(created.run_id);
    const run = await sdk.agent.runs.retrieve(created.run_id);
    expect(run.state).toBe('CANCELLED');
  });

  // SDK 1.4's methods the installed SDK does not have yet, sent through its own transport as 1.4 sends them.
  describe('the methods SDK 1.4 adds', () => {
    const keyless = { headers: { Authorization: null } };

    it('checks both redirects without a key (sessions.checkRedirect, conversations.checkRedirect)', async () => {
      const run = await sdk.agent.runs.retrieve(parentId);
      expect(await sdk.get(`/agent/sessions/${run.session_id}/redirect`, keyless)).toEqual({ conversation_id: conversationId });
      expect(await sdk.get(`/agent/conversations/${conversationId}/redirect`, keyless)).toHaveProperty('session_id');
    });

    it('lists environments (agent.listEnvironments)', async () => {
      const res = await sdk.get('/agent/environments', { query: { sort_by: 'name' } });
      expect(ListEnvironmentsResponseSchema.parse(res).environments.map((e) => e.uid)).toContain('env-1');
    });

    it('gets an artifact, the handoff attachments and sends a follow-up (agent.getArtifact, runs.listHandoffAttachments, runs.submitFollowup)', async () => {
      const created = await sdk.agent.run({ prompt: 'Plan it [simulate artifact plan]' });
      let run = await sdk.agent.runs.retrieve(created.run_id);
      for (let i = 0; i < 200 && !['SUCCEEDED', 'FAILED', 'ERROR'].includes(run.state); i++) {
        await new Promise((r) => setTimeout(r, 25));
        run = await sdk.agent.runs.retrieve(created.run_id);
      }
      const plan = (run.artifacts ?? [])[0] as { data?: { artifact_uid?: string }; artifact_uid?: string } | undefined;
      const uid = plan?.data?.artifact_uid ?? plan?.artifact_uid;
      expect(ArtifactResponseSchema.safeParse(await sdk.get(`/agent/artifacts/${uid}`)).error).toBeUndefined();
      expect(HandoffAttachmentsResponseSchema.safeParse(await sdk.get(`/agent/runs/${created.run_id}/handoff/attachments`)).error).toBeUndefined();
      await sdk.post(`/agent/runs/${created.run_id}/followups`, { body: { message: 'And the tests' } });
    });

    it('creates (201), gets, lists, updates and deletes a named agent (agent.agent.*)', async () => {
      const { data, response } = await sdk.post('/agent/identities', { body: { name: 'agent-2' } }).withResponse();
      expect(response.status).toBe(201);
      const agent = AgentIdentitySchema.parse(data);
      expect(AgentIdentitySchema.parse(await sdk.get(`/agent/identities/${agent.uid}`)).name).toBe('agent-2');
      expect(ListAgentIdentitiesResponseSchema.parse(await sdk.get('/agent/identities')).agents.map((a) => a.uid)).toContain(agent.uid);
      expect(AgentIdentitySchema.parse(await sdk.put(`/agent/identities/${agent.uid}`, { body: { name: 'agent-2b' } })).name).toBe('agent-2b');
      await sdk.delete(`/agent/identities/${agent.uid}`);
    });

    it('refuses a schedule with agent_config.skills alone only when the server has none of the skills', async () => {
      const error = await sdk.agent.schedules.create({ name: 's', cron_schedule: '0 2 * * *', agent_config: { skills: ['o/r:none'] } } as never).catch((e: unknown) => e);
      expect((error as { status?: number }).status).toBe(400);
    });

    it('continues a conversation given only its conversation_id (a handoff)', async () => {
      const created = RunAgentResponseSchema.parse(await sdk.post('/agent/runs', { body: { conversation_id: conversationId } }));
      expect((await sdk.agent.runs.retrieve(created.run_id)).conversation_id).toBe(conversationId);
      expect(ConversationResponseSchema.parse(await sdk.get(`/agent/conversations/${conversationId}`)).conversation_id).toBe(conversationId);
    });
  });

  it('got only answers the OpenAPI document describes', () => {
    expect(checker.mismatches).toEqual([]);
  });
});
