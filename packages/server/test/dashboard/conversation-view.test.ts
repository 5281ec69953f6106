import { describe, expect, it } from 'vitest';
import { conversationView } from '../../src/dashboard/conversation-view.js';

describe("the run page's conversation", () => {
  it('shows a tool call as its command line and its result folded, all escaped', () => {
    const out = conversationView({
      conversation_id: 'c',
      steps: [
        {
          id: 's1',
          description: 'Execution 1',
          messages: [
            { role: 'assistant', content: [{ type: 'action', id: 'a1', category: 'tool', name: 'shell', input: { line: '$ cat <b>notes</b>' } }] },
            { role: 'tool', content: [{ type: 'action_result', action_id: 'a1', category: 'tool', name: 'shell', state: 'done', output: { text: 'one\n<script>x</script>' } }] },
            { role: 'assistant', content: [{ type: 'text', text: 'Done' }, { type: 'image', name: 'shot' }] },
          ],
          steps: [],
        },
      ],
    }).text;
    expect(out).toContain('<code class="msg">$ cat &lt;b&gt;notes&lt;/b&gt;</code>');
    expect(out).toContain('<summary>shell output (2 lines)</summary><pre class="msg">one\n&lt;script&gt;x&lt;/script&gt;</pre>');
    expect(out).toContain('<span class="msg">Done</span>');
    expect(out).toContain('[image shot]');
    expect(out).not.toContain('[action');
  });

  it('cuts a long tool output and says when there is nothing yet', () => {
    const long = 'x'.repeat(10_000);
    const out = conversationView({
      conversation_id: 'c',
      steps: [{ id: 's', messages: [{ role: 'tool', content: [{ type: 'action_result', action_id: 'a', category: 'tool', name: 'read', state: 'done', output: { text: long } }] }], steps: [] }],
    }).text;
    expect(out).toContain(`${'x'.repeat(4000)}…</pre>`);
    expect(out).not.toContain('x'.repeat(4001));
    expect(conversationView(undefined).text).toContain('No messages yet.');
  });
});
