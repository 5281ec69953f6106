import { describe, expect, it } from 'vitest';
import {
  ArtifactItemSchema,
  RUN_REQUEST_LIMITS,
  RequestValidationError,
  RunItemSchema,
  isArtifactOfType,
  type ArtifactItem,
} from '../src/index.js';
import { useFaultServer } from './support/use-fault-server.js';

const run = {
  run_id: 'r1',
  task_id: 'r1',
  title: 't',
  state: 'SUCCEEDED',
  prompt: 'p',
  created_at: '2026-11-22T01:00:00Z',
  updated_at: '2026-11-22T01:05:00Z',
};

const at = '2026-11-22T01:04:00Z';

describe('RunItem of the newest service', () => {
  it('parses every artifact type and narrows on artifact_type', () => {
    const artifacts = [
      { artifact_type: 'PLAN', created_at: at, data: { document_uid: 'd1', title: 'Plan' } },
      { artifact_type: 'PULL_REQUEST', created_at: at, data: { url: 'https://github.com/o/r/pull/1', branch: 'fix' } },
      { artifact_type: 'SCREENSHOT', created_at: at, data: { artifact_uid: 'a1', mime_type: 'image/png' } },
      { artifact_type: 'FILE', created_at: at, data: { artifact_uid: 'a2', filename: 'r.txt', filepath: 'out/r.txt', mime_type: 'text/plain', size_bytes: 3 } },
      { artifact_type: 'EXTERNAL_REFERENCE', created_at: at, data: { reference_type: 'linear', url: 'https://linear.app/x' } },
    ];
    const parsed = RunItemSchema.parse({ ...run, artifacts });
    expect(parsed.artifacts?.map((a) => a.artifact_type)).toEqual(['PLAN', 'PULL_REQUEST', 'SCREENSHOT', 'FILE', 'EXTERNAL_REFERENCE']);
    const pr = parsed.artifacts!.find((a): a is Extract<ArtifactItem, { artifact_type: 'PULL_REQUEST' }> => isArtifactOfType(a, 'PULL_REQUEST'));
    expect(pr?.data.branch).toBe('fix');
  });

  it('keeps an artifact of a type it does not know', () => {
    const parsed = RunItemSchema.parse({ ...run, artifacts: [{ artifact_type: 'VIDEO', created_at: at, data: { seconds: 3 } }] });
    expect(parsed.artifacts).toEqual([{ artifact_type: 'VIDEO', created_at: at, data: { seconds: 3 } }]);
  });

  it('rejects a known artifact type without its required data', () => {
    const result = ArtifactItemSchema.safeParse({ artifact_type: 'PULL_REQUEST', created_at: at, data: { branch: 'b' } });
    expect(result.success).toBe(false);
  });

  it('parses usage with token counts, run time, metadata, executor, schedule and scope', () => {
    const usage = {
      inference_cost: 3,
      total_tokens: 1200,
      inference_cost_breakdown_usd: { input_cost_usd: 0.1, output_cost_usd: 0.2, input_cache_read_cost_usd: 0, input_cache_write_cost_usd: 0 },
      usage_by_category: {
        agent: {
          platform_usage_usd: 0.01,
          direct_api_inference_usage: {
            'claude-x': {
              cost_usd: { input_cost_usd: 0.1, output_cost_usd: 0.2, input_cache_read_cost_usd: 0, input_cache_write_cost_usd: 0 },
              token_count: { input: 1000, output: 200, input_cache_read: 0, input_cache_write: 0 },
              web_search_cost_usd: 0,
              web_search_count: 0,
            },
          },
        },
      },
    };
    const parsed = RunItemSchema.parse({
      ...run,
      request_usage: usage,
      run_time: '5m0s',
      metadata: { team: 'core' },
      executor: { type: 'service_account', uid: 'sa-1' },
      is_run_type_cancellable: true,
      schedule: { schedule_id: 's1', schedule_name: 'nightly', cron_schedule: '0 3 * * *' },
      scope: { type: 'Team', uid: 't1' },
      agent_skill: { name: 'triage' },
      status_message: { message: 'done', session_debug_until: at },
    });
    expect(parsed.request_usage?.usage_by_category?.agent?.direct_api_inference_usage?.['claude-x']?.token_count.input).toBe(1000);
    expect(parsed.metadata).toEqual({ team: 'core' });
    expect(parsed.executor?.uid).toBe('sa-1');
    expect(parsed.schedule?.schedule_name).toBe('nightly');
  });
});

describe('create limits, checked before sending', () => {
  const ctx = useFaultServer();
  const file = (data = 'aGVsbG8=') => ({ file_name: 'a.txt', mime_type: 'text/plain', data });

  const rejected = async (body: Parameters<typeof ctx.client.runs.create>[0]) => {
    const error = (await ctx.client.runs.create(body).catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(ctx.server.requests).toHaveLength(0);
    return error.message;
  };

  it('names metadata with more than 20 keys', async () => {
    const metadata = Object.fromEntries(Array.from({ length: RUN_REQUEST_LIMITS.metadataKeys + 1 }, (_, i) => [`k${i}`, 'v']));
    expect(await rejected({ prompt: 'p', metadata })).toMatch(/metadata: must have at most 20 keys/);
  });

  it('names more than 5 attachments', async () => {
    expect(await rejected({ prompt: 'p', attachments: Array.from({ length: 6 }, () => file()) })).toMatch(/attachments: must have at most 5 files/);
  });

  it('names an attachment that is not base64', async () => {
    expect(await rejected({ prompt: 'p', attachments: [file('not base64!')] })).toMatch(/attachments\[0\]\.data: must be base64/);
  });

  it('names an attachment over the size limit', async () => {
    const big = Buffer.alloc(RUN_REQUEST_LIMITS.attachmentBytes + 1).toString('base64');
    expect(await rejected({ prompt: 'p', attachments: [file(big)] })).toMatch(/attachments\[0\]\.data: must decode to at most 5 MiB/);
  });

  it('names an attachment whose file name is a path or holds a line break', async () => {
    expect(await rejected({ prompt: 'p', attachments: [{ ...file(), file_name: '../etc/passwd' }] })).toMatch(
      /attachments\[0\]\.file_name: must be a bare file name/,
    );
    expect(await rejected({ prompt: 'p', attachments: [{ ...file(), file_name: 'a\nb.txt' }] })).toMatch(
      /attachments\[0\]\.file_name: must not contain control characters/,
    );
  });

  it('names an unknown mode', async () => {
    expect(await rejected({ prompt: 'p', mode: 'fast' as 'plan' })).toMatch(/mode: must be one of normal, plan, orchestrate/);
  });

  it('sends every new field to POST /agent/runs', async () => {
    await ctx.client.runs.create({
      prompt: 'p',
      metadata: { team: 'core' },
      mode: 'plan',
      attachments: [file()],
      conversation_id: 'c1',
      parent_run_id: 'r0',
      interactive: false,
      agent_identity_uid: 'ag1',
      on_behalf_of: 'u1',
      future_field: 1,
    });
    const [req] = ctx.server.requests;
    expect(req!.path).toBe('/api/v1/agent/runs');
    expect(JSON.parse(req!.body)).toMatchObject({ mode: 'plan', metadata: { team: 'core' }, parent_run_id: 'r0', future_field: 1 });
  });
});

describe('list filters', () => {
  const ctx = useFaultServer();

  it('sends every filter, metadata as metadata[key]=value', async () => {
    await ctx.client.runs.list({
      execution_location: 'REMOTE',
      schedule_id: 's1',
      ancestor_run_id: 'r0',
      artifact_type: 'PULL_REQUEST',
      metadata: { team: 'core', env: 'ci' },
      executor: 'u1',
      automation_id: 'a1',
      factory_uid: 'f1',
      skill: 'o/r:s',
    });
    const query = ctx.server.requests[0]!.query;
    expect(Object.fromEntries(query)).toEqual({
      execution_location: 'REMOTE',
      schedule_id: 's1',
      ancestor_run_id: 'r0',
      artifact_type: 'PULL_REQUEST',
      'metadata[team]': 'core',
      'metadata[env]': 'ci',
      executor: 'u1',
      automation_id: 'a1',
      factory_uid: 'f1',
      skill: 'o/r:s',
    });
  });

  it('names an unknown artifact type before sending', async () => {
    const error = await ctx.client.runs.list({ artifact_type: 'VIDEO' as 'FILE' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toMatch(/artifact_type: must be one of PLAN, PULL_REQUEST/);
  });
});

describe('retries after a lost answer', () => {
  const ctx = useFaultServer({ maxRetries: 2 });

  it('does not send a cancel again after a reset: it carries no Idempotency-Key', async () => {
    const created = await ctx.client.runs.create({ prompt: 'p' });
    ctx.server.inject({ kind: 'reset-after' }, (r) => r.path.endsWith('/cancel'));
    const error = await ctx.client.runs.cancel(created.run_id).catch((e: unknown) => e);
    expect((error as Error).name).toBe('APIConnectionError');
    expect(ctx.server.requests.filter((r) => r.path.endsWith('/cancel'))).toHaveLength(1);
  });

  it('sends a DELETE again after a reset', async () => {
    ctx.server.inject({ kind: 'reset-after' }, (r) => r.method === 'DELETE');
    const error = await ctx.client.request({ method: 'DELETE', path: '/agent/schedules/s1' }).catch((e: unknown) => e);
    expect((error as { status?: number }).status).toBe(404);
    expect(ctx.server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(2);
  });

  it('sends a POST with a caller’s Idempotency-Key again after a reset', async () => {
    ctx.server.inject({ kind: 'reset-after' }, (r) => r.path.endsWith('/cancel'));
    const created = await ctx.client.runs.create({ prompt: 'p' });
    await ctx.client.request({ method: 'POST', path: `/agent/runs/${created.run_id}/cancel`, headers: { 'Idempotency-Key': 'k' } });
    expect(ctx.server.requests.filter((r) => r.path.endsWith('/cancel'))).toHaveLength(2);
  });
});
