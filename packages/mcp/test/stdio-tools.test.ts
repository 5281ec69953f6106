import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@agent-runs/server';
import { binEnv, connectStdio, startRunsApi, textOf, type StdioSession } from './support/mcp-harness.js';

let api: RunningServer;
let mcp: StdioSession;

beforeAll(async () => {
  api = await startRunsApi();
  mcp = await connectStdio(binEnv(api));
});

afterAll(async () => {
  await mcp?.close();
  await api?.close();
});

describe('tools/list', () => {
  it('offers every tool with titles, descriptions and annotations', async () => {
    const { tools } = await mcp.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([
      'cancel_run', 'create_run', 'create_schedule', 'create_webhook', 'delete_schedule', 'follow_up_run', 'get_run', 'get_run_conversation', 'get_run_output',
      'list_agents', 'list_environments', 'list_models', 'list_runs', 'list_schedules', 'list_skills', 'list_webhooks', 'list_workers', 'pause_schedule', 'read_messages', 'resume_schedule', 'send_message', 'wait_for_run',
    ]);
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.description!.length).toBeGreaterThan(60);
      expect(tool.annotations?.openWorldHint).toBe(true);
      expect(tool.outputSchema?.type).toBe('object');
    }
    expect(byName.list_runs!.annotations?.readOnlyHint).toBe(true);
    expect(byName.get_run!.annotations?.readOnlyHint).toBe(true);
    expect(byName.wait_for_run!.annotations?.readOnlyHint).toBe(true);
    expect(byName.cancel_run!.annotations?.destructiveHint).toBe(true);
    expect(byName.create_run!.annotations?.readOnlyHint).toBe(false);
  });

  it('derives input schemas from the contract', async () => {
    const { tools } = await mcp.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const create = byName.create_run!.inputSchema as any;
    expect(Object.keys(create.properties)).toEqual(expect.arrayContaining(['prompt', 'title', 'skill', 'team', 'config']));
    expect(create.properties.config.properties.idle_timeout_minutes).toMatchObject({ minimum: 1, maximum: 60 });
    const list = byName.list_runs!.inputSchema as any;
    expect(list.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 });
    expect(JSON.stringify(list.properties.state)).toContain('INPROGRESS');
    expect(list.properties.sort_by.enum).toEqual(['updated_at', 'created_at', 'title', 'agent']);
    expect((byName.get_run!.inputSchema as any).required).toEqual(['run_id']);
    expect(create.additionalProperties).toBe(false);
    expect(byName.wait_for_run!.execution?.taskSupport).toBe('optional');
  });
});

describe('create_run, get_run, list_runs', () => {
  it('creates a run and returns its id with a next step', async () => {
    const result = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Fix the flaky test', title: 'flaky' } });
    expect(result.isError).toBeFalsy();
    const created = result.structuredContent as { run_id: string; state: string };
    expect(created.run_id).toMatch(/\S/);
    expect(created.state).toBe('QUEUED');
    expect(textOf(result)).toContain(`wait_for_run with run_id "${created.run_id}"`);
    const fetched = await mcp.client.callTool({ name: 'get_run', arguments: { run_id: created.run_id } });
    expect(fetched.structuredContent).toMatchObject({ run_id: created.run_id, title: 'flaky', prompt: 'Fix the flaky test' });
    expect(textOf(fetched)).toContain(`Run ${created.run_id}`);
  });

  it('lists runs with a state filter and reports the next page cursor', async () => {
    for (let i = 0; i < 3; i++) {
      await mcp.client.callTool({ name: 'create_run', arguments: { prompt: `List me ${i} [simulate hang]` } });
    }
    const page = await mcp.client.callTool({ name: 'list_runs', arguments: { limit: 2, q: 'List me' } });
    const body = page.structuredContent as { runs: Array<{ run_id: string }>; page_info: { has_next_page: boolean; next_cursor?: string } };
    expect(body.runs).toHaveLength(2);
    expect(body.page_info.has_next_page).toBe(true);
    expect(textOf(page)).toContain(`cursor "${body.page_info.next_cursor}"`);
    const rest = await mcp.client.callTool({ name: 'list_runs', arguments: { limit: 2, q: 'List me', cursor: body.page_info.next_cursor } });
    expect((rest.structuredContent as { runs: unknown[] }).runs).toHaveLength(1);
    const filtered = await mcp.client.callTool({ name: 'list_runs', arguments: { state: ['SUCCEEDED'], q: 'List me' } });
    expect((filtered.structuredContent as { runs: unknown[] }).runs).toHaveLength(0);
    expect(textOf(filtered)).toBe('No runs match.');
  });
});

describe('cancel_run', () => {
  it('cancels a running run and shows it CANCELLED', async () => {
    const created = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Long one [simulate hang]' } });
    const { run_id } = created.structuredContent as { run_id: string };
    const result = await mcp.client.callTool({ name: 'cancel_run', arguments: { run_id } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ run_id, cancelled: true, run: { state: 'CANCELLED' } });
  });

  it('says what to do when the run already finished', async () => {
    const created = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Quick [simulate 10ms]' } });
    const { run_id } = created.structuredContent as { run_id: string };
    await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id } });
    const result = await mcp.client.callTool({ name: 'cancel_run', arguments: { run_id } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Could not cancel run .*400.*Use get_run/s);
  });
});

describe('errors come back as tool results the assistant can act on', () => {
  it('names the missing prompt', async () => {
    const result = await mcp.client.callTool({ name: 'create_run', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('prompt: is required');
    expect(textOf(result)).toContain('Fix the named argument');
  });

  it('names a bad field inside config', async () => {
    const result = await mcp.client.callTool({
      name: 'create_run',
      arguments: { prompt: 'x', config: { idle_timeout_minutes: 500 } },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('idle_timeout_minutes');
  });

  it('names an argument the tool does not take instead of dropping it', async () => {
    const result = await mcp.client.callTool({
      name: 'create_run',
      arguments: { prompt: 'x', mcp_servers: { gh: { command: 'gh-mcp' } } },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('mcp_servers');
    const runs = await mcp.client.callTool({ name: 'list_runs', arguments: { q: 'x', status: 'FAILED' } });
    expect(runs.isError).toBe(true);
    expect(textOf(runs)).toContain('status');
  });

  it('points to list_runs for an unknown run id', async () => {
    const result = await mcp.client.callTool({ name: 'get_run', arguments: { run_id: 'no-such-run' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('404');
    expect(textOf(result)).toContain('Use list_runs');
  });

  it('points each refused name at the tool that lists them, never at an HTTP path or get_run', async () => {
    const cases = [
      [{ name: 'create_run', arguments: { prompt: 'x', skill: 'no-such-skill' } }, 'list_skills'],
      [{ name: 'create_run', arguments: { prompt: 'x', environment: 'no-such-env' } }, 'list_environments'],
      [{ name: 'create_run', arguments: { prompt: 'x', agent: 'no-such-agent' } }, 'list_agents'],
      [{ name: 'create_schedule', arguments: { name: 'n', cron_schedule: 'every day', prompt: 'x' } }, 'Fix cron_schedule'],
    ] as const;
    for (const [call, hint] of cases) {
      const result = await mcp.client.callTool(call);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(hint);
      expect(textOf(result)).not.toMatch(/get_run|GET \/agent/);
    }
  });

  it('points to list_schedules for an unknown schedule id, not to runs', async () => {
    const result = await mcp.client.callTool({ name: 'pause_schedule', arguments: { schedule_id: 'no-such-schedule' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Use list_schedules to find the right schedule_id.');
    expect(textOf(result)).toContain('Check the schedule id');
    expect(textOf(result)).not.toMatch(/run id|list_runs/);
  });

  it('says there is no API key, not "retry shortly", when a remote server cannot be reached without one', async () => {
    const nokey = await connectStdio(binEnv(undefined, { AGENT_RUNS_BASE_URL: 'https://agent-runs.invalid/api/v1'}));
    try {
      const result = await nokey.client.callTool({ name: 'get_run', arguments: { run_id: 'some-run' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('The MCP server has no API key.');
      expect(textOf(result)).not.toContain('retry shortly');
    } finally {
      await nokey.close();
    }
  });

  it('rejects arguments of the wrong type naming the argument', async () => {
    const missing = await mcp.client.callTool({ name: 'get_run', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('run_id is required');
    const badLimit = await mcp.client.callTool({ name: 'list_runs', arguments: { limit: 0 } });
    expect(textOf(badLimit)).toContain('limit must be an integer from 1 to 500');
    const badState = await mcp.client.callTool({ name: 'list_runs', arguments: { state: 'DONE' } });
    expect(textOf(badState)).toContain('state must be one of QUEUED');
    const badTimeout = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id: 'x', timeout: 'soon' } });
    expect(badTimeout.isError).toBe(true);
    expect(textOf(badTimeout)).toContain('timeout must be a duration');
    const hugeTimeout = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id: 'x', timeout: '1000d' } });
    expect(textOf(hugeTimeout)).toContain('at most 24h');
  });

  it('keeps serving after bad calls', async () => {
    await mcp.client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: Error) => e);
    const ok = await mcp.client.callTool({ name: 'list_runs', arguments: { limit: 1 } });
    expect(ok.isError).toBeFalsy();
  });
});

describe('resources', () => {
  it('reads a run by its agent-run:// URI', async () => {
    const created = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Resource me [simulate hang]' } });
    const { run_id } = created.structuredContent as { run_id: string };
    const { contents } = await mcp.client.readResource({ uri: `agent-run://${run_id}` });
    expect(contents[0]!.mimeType).toBe('application/json');
    expect(JSON.parse((contents[0] as { text: string }).text)).toMatchObject({ run_id, prompt: 'Resource me [simulate hang]' });
  });

  it('lists recent runs as resources and as one document', async () => {
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('agent-run://{run_id}');
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toContain('agent-run://recent');
    expect(resources.filter((r) => r.uri !== 'agent-run://recent').length).toBeGreaterThan(0);
    const recent = await mcp.client.readResource({ uri: 'agent-run://recent' });
    const body = JSON.parse((recent.contents[0] as { text: string }).text);
    expect(body.runs.length).toBeGreaterThan(0);
    expect(body.page_info).toHaveProperty('has_next_page');
  });

  it('answers an unknown run with a not-found error naming where to look', async () => {
    await expect(mcp.client.readResource({ uri: 'agent-run://nope' })).rejects.toThrow(/No run nope: read agent-run:\/\/recent/);
  });
});
