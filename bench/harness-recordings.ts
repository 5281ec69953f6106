/**
 * Recorded-looking streams of the three harness CLIs, about 50 MB each, built turn by turn
 * in each CLI's own JSON-lines form: text, a shell call and its output, with usage.
 */
const TARGET_BYTES = 50 * 1024 * 1024;
const at = '2026-11-24T08:44:20.915Z';
const lines = (events: unknown[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
const testOutput = (i: number) => `PASS src/parser.test.ts\n  ✓ case ${i} (3 ms)\n${'x'.repeat(600)}\nTests: 1 passed`;

function build(head: string, turn: (i: number) => string, tail: string): string {
  const parts = [head];
  let bytes = 0;
  for (let i = 0; bytes < TARGET_BYTES; i++) {
    const t = turn(i);
    parts.push(t);
    bytes += t.length;
  }
  parts.push(tail);
  return parts.join('');
}

/** Claude Code's `stream-json`: assistant text, a tool call, its result. */
export function claudeRecording(): string {
  const session = '5ca1e34a-db53-4d38-88af-cfcebf7e2686';
  return build(
    '',
    (i) => {
      const usage = { input_tokens: 1200 + i, output_tokens: 80, cache_read_input_tokens: 900, cache_creation_input_tokens: 40 };
      const message = (content: unknown[]) => ({ type: 'assistant', message: { id: `msg_${i}`, model: 'claude-sonnet-4-5', role: 'assistant', content, usage }, session_id: session });
      return lines([
        message([{ type: 'text', text: `Looking at step ${i} of the task, the parser needs a change.` }]),
        message([{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `npm test -- --grep case-${i}`, description: 'Run the tests' } }]),
        { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: testOutput(i) }] }, session_id: session },
      ]);
    },
    '',
  );
}

/** Gemini CLI's `stream-json`: text in deltas, a shell call, its output; usage in the last line. */
export function geminiRecording(): string {
  const totals = { total_tokens: 1250, input_tokens: 1000, output_tokens: 200, cached: 100, input: 900 };
  return build(
    lines([{ type: 'init', timestamp: at, session_id: 'fd3565a7-b3d1-474f-bd09-0b05c807a425', model: 'gemini-2.5-pro' }]),
    (i) => {
      const id = `run_shell_command__run_shell_command_${1795509860922 + i}_0`;
      return lines([
        { type: 'message', timestamp: at, role: 'assistant', content: `Looking at step ${i} of the task, `, delta: true },
        { type: 'message', timestamp: at, role: 'assistant', content: 'the parser needs ', delta: true },
        { type: 'message', timestamp: at, role: 'assistant', content: 'a change.\n', delta: true },
        { type: 'tool_use', timestamp: at, tool_name: 'run_shell_command', tool_id: id, parameters: { command: `npm test -- --grep case-${i}`, description: 'Run the tests' } },
        { type: 'tool_result', timestamp: at, tool_id: id, status: 'success', output: testOutput(i) },
      ]);
    },
    lines([{ type: 'result', timestamp: at, status: 'success', stats: { ...totals, duration_ms: 1, tool_calls: 1, models: { 'gemini-2.5-pro': totals } } }]),
  );
}

/** `codex exec --json`: the agent's message, a command started and completed; usage at the turn's end. */
export function codexRecording(): string {
  return build(
    lines([{ type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' }, { type: 'turn.started' }]),
    (i) => {
      const command = { id: `item_${i}_1`, type: 'command_execution', command: `/bin/bash -lc 'npm test -- --grep case-${i}'` };
      return lines([
        { type: 'item.completed', item: { id: `item_${i}_0`, type: 'agent_message', text: `Looking at step ${i} of the task, the parser needs a change.` } },
        { type: 'item.started', item: { ...command, aggregated_output: '', exit_code: null, status: 'in_progress' } },
        { type: 'item.completed', item: { ...command, aggregated_output: testOutput(i), exit_code: 0, status: 'completed' } },
      ]);
    },
    lines([{ type: 'turn.completed', usage: { input_tokens: 1000, cached_input_tokens: 100, output_tokens: 200 } }]),
  );
}
