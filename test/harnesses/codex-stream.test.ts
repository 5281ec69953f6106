import { describe, expect, it } from 'vitest';
import { CodexStreamParser, unwrapShell } from '../../packages/server/src/executors/harness/codex-stream.js';

/** The output text a run of lines gives, and the other events by kind. */
function parse(lines: unknown[]): { text: string; kinds: string[] } {
  const parser = new CodexStreamParser('gpt-5.5', '/work/run');
  const events = lines.flatMap((line) => parser.line(typeof line === 'string' ? line : JSON.stringify(line)));
  return { text: events.flatMap((e) => (e.kind === 'output' ? [e.text] : [])).join(''), kinds: events.map((e) => e.kind) };
}

describe('the Codex stream as output lines', () => {
  it('shows a command as the command the agent wrote, quotes and all, and a failing one with its exit code', () => {
    expect(unwrapShell(`/bin/bash -lc 'echo '\\''hi'\\'' > a.txt'`)).toBe(`echo 'hi' > a.txt`);
    expect(unwrapShell('npm test')).toBe('npm test');
    const { text } = parse([
      { type: 'item.started', item: { id: 'item_1', type: 'command_execution', command: "/bin/bash -lc 'npm test'", aggregated_output: '', exit_code: null, status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'item_1', type: 'command_execution', command: "/bin/bash -lc 'npm test'", aggregated_output: 'FAIL parser\n1 failed\n', exit_code: 1, status: 'failed' } },
    ]);
    expect(text).toBe('$ npm test\n  FAIL parser\n  1 failed\n  (exit code 1)\n');
  });

  it('shows edits relative to the working directory, an MCP call with its result, and Codex\'s warnings', () => {
    const { text } = parse([
      { type: 'item.completed', item: { id: 'item_2', type: 'file_change', changes: [{ path: '/work/run/src/a.ts', kind: 'update' }, { path: '/etc/hosts', kind: 'delete' }], status: 'completed' } },
      { type: 'item.started', item: { id: 'item_3', type: 'mcp_tool_call', server: 'github', tool: 'create_issue', arguments: { title: 'Bug' }, result: null, error: null, status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'item_3', type: 'mcp_tool_call', server: 'github', tool: 'create_issue', arguments: { title: 'Bug' }, result: { content: [{ type: 'text', text: 'created #12' }], structured_content: null }, error: null, status: 'completed' } },
      { type: 'item.completed', item: { id: 'item_4', type: 'error', message: 'Model metadata for `gpt-5-codex` not found.' } },
      { type: 'item.completed', item: { id: 'item_5', type: 'reasoning', text: 'thinking…' } },
      'WARNING: proceeding, even though we could not create PATH aliases',
    ]);
    expect(text).toBe(
      'edit src/a.ts\ndelete /etc/hosts\ngithub.create_issue Bug\n  created #12\nwarning: Model metadata for `gpt-5-codex` not found.\nWARNING: proceeding, even though we could not create PATH aliases\n',
    );
  });

  it('turns the thread into the session, the turn\'s tokens into totals of the model it was started with, and a failure into its readable message', () => {
    const parser = new CodexStreamParser('gpt-5.5', undefined);
    expect(parser.line(JSON.stringify({ type: 'thread.started', thread_id: '01a20cb9-f73d-7750-a2e2-e9e8924fbab9' }))).toEqual([{ kind: 'session', id: '01a20cb9-f73d-7750-a2e2-e9e8924fbab9' }]);
    parser.line(JSON.stringify({ type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'Done.' } }));
    const [totals, result] = parser.line(JSON.stringify({ type: 'turn.completed', usage: { input_tokens: 300, cached_input_tokens: 30, cache_write_input_tokens: 0, output_tokens: 60, reasoning_output_tokens: 15 } }));
    expect(totals).toEqual({ kind: 'totals', byModel: new Map([['gpt-5.5', { tokens: { input: 270, input_cache_read: 30, input_cache_write: 0, output: 60 }, webSearches: 0 }]]) });
    expect(result).toEqual({ kind: 'result', text: 'Done.', isError: false });
    const body = JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } });
    expect(parser.line(JSON.stringify({ type: 'turn.failed', error: { message: body } }))).toEqual([{ kind: 'result', text: 'Incorrect API key provided.', isError: true }]);
  });
});
