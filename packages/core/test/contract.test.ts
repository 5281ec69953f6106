import { describe, expect, it } from 'vitest';
import {
  ListRunsResponseSchema,
  RequestValidationError,
  RunItemSchema,
  isTerminalState,
  nameIssues,
  withIssueNames,
} from '../src/index.js';
import { useFaultServer } from './support/use-fault-server.js';

const run = {
  run_id: 'r1',
  task_id: 'r1',
  title: 't',
  state: 'QUEUED',
  prompt: 'p',
  created_at: '2026-11-22T01:00:00Z',
  updated_at: '2026-11-22T01:00:00Z',
};

describe('request validation', () => {
  const ctx = useFaultServer();

  it('rejects an MCP server with two transports before sending, naming the field', async () => {
    const error = (await ctx.client.runs
      .create({ prompt: 'x', config: { mcp_servers: { gh: { command: 'gh-mcp', url: 'https://mcp.example.com' } } } })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues).toEqual([
      { path: 'config.mcp_servers.gh', message: 'must have exactly one of warp_id, command or url (got command and url)' },
    ]);
    expect(error.lines).toEqual(['config.mcp_servers.gh: must have exactly one of warp_id, command or url (got command and url)']);
    expect(ctx.server.requests).toHaveLength(0);
  });

  it('requires a prompt unless a skill is given', async () => {
    await expect(ctx.client.runs.create({ prompt: '  ' })).rejects.toThrow(/prompt: is required/);
    await ctx.client.runs.create({ skill: 'acme/tools:deploy' }).catch(() => undefined);
    expect(ctx.server.requests).toHaveLength(1);
  });

  it('names an out-of-range idle timeout', async () => {
    await expect(ctx.client.runs.create({ prompt: 'x', config: { idle_timeout_minutes: 0 } })).rejects.toThrow(
      /config\.idle_timeout_minutes/,
    );
  });

  it('rejects a bad list query before sending', async () => {
    const error = (await ctx.client.runs
      .list({ limit: 501, state: 'DONE' as never, created_after: 'yesterday' })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error.issues.map((i) => i.path)).toEqual(['limit', 'state[0]', 'created_after']);
    expect(error.lines[1]).toBe('state[0]: must be one of QUEUED, PENDING, CLAIMED, INPROGRESS, SUCCEEDED, FAILED, BLOCKED, ERROR, CANCELLED');
    expect(ctx.server.requests).toHaveLength(0);
  });

  it('names a list parameter it does not know instead of dropping it', async () => {
    const error = (await ctx.client.runs
      .list({ status: 'FAILED' } as never)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error.issues).toEqual([{ path: 'status', message: 'is not a known field' }]);
    expect(ctx.server.requests).toHaveLength(0);
  });

  it('rejects an empty run id', async () => {
    await expect(ctx.client.runs.get('')).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('passes members it does not know through to the server', async () => {
    await ctx.client.runs.create({ prompt: 'x', conversation_id: 'c1' } as never);
    expect(JSON.parse(ctx.server.requests[0]!.body)).toMatchObject({ conversation_id: 'c1' });
  });
});

describe('response parsing', () => {
  it('keeps unknown members and an unknown state', () => {
    const parsed = RunItemSchema.parse({ ...run, state: 'PAUSED', new_field: { a: 1 } });
    expect(parsed.state).toBe('PAUSED');
    expect((parsed as Record<string, unknown>).new_field).toEqual({ a: 1 });
    expect(isTerminalState(parsed.state)).toBe(false);
  });

  it('accepts an unknown source', () => {
    expect(RunItemSchema.parse({ ...run, source: 'TEAMS' }).source).toBe('TEAMS');
  });

  it('parses a list page with a next cursor', () => {
    const page = ListRunsResponseSchema.parse({ runs: [run], page_info: { has_next_page: true, next_cursor: 'c' } });
    expect(page.page_info.next_cursor).toBe('c');
  });

  it('treats BLOCKED as terminal and INPROGRESS as not', () => {
    expect(isTerminalState('BLOCKED')).toBe(true);
    expect(isTerminalState('INPROGRESS')).toBe(false);
  });
});

describe('naming issues in an adapter’s terms', () => {
  const ctx = useFaultServer();

  it('renames paths by the longest known prefix and keeps unknown ones', async () => {
    const error = (await ctx.client.runs
      .create({ prompt: 'x', config: { idle_timeout_minutes: 99, mcp_servers: { gh: {} } }, mode: 'fast' as 'plan' })
      .catch((e: unknown) => e)) as RequestValidationError;
    const named = error.withNames({ 'config.idle_timeout_minutes': '--idle-timeout', 'config.mcp_servers': '--mcp' });
    expect(named).toBeInstanceOf(RequestValidationError);
    expect(named.issues.map((i) => i.path).sort()).toEqual(['--idle-timeout', '--mcp.gh', 'mode']);
    expect(named.message).toMatch(/^Invalid run request: /);
  });

  it('drops a bare list index after a name', () => {
    expect(nameIssues([{ path: 'state[1]', message: 'm' }], { state: '--state' })).toEqual([{ path: '--state', message: 'm' }]);
  });

  it('leaves other errors alone', () => {
    const other = new Error('x');
    expect(withIssueNames(other, { a: 'b' })).toBe(other);
  });
});
