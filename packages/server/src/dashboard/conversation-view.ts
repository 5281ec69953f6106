import type { ConversationContentBlock, ConversationResponse } from '@agent-runs/core/contract';
import { html, type SafeHtml } from './html.js';
import { time } from './layout.js';

/** Longest tool output shown inline; the whole of it stays in the transcript and the API. */
const MAX_RESULT_CHARS = 4000;

function stringField(record: unknown, key: string): string | undefined {
  const value = record && typeof record === 'object' ? (record as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** One block as people read it: text as written, a tool call as its command line, a result as its output. */
function blockView(block: ConversationContentBlock): SafeHtml {
  const name = stringField(block, 'name');
  switch (block.type) {
    case 'text':
      return html`<span class="msg">${stringField(block, 'text') ?? ''}</span>`;
    case 'action': {
      const line = stringField((block as { input?: unknown }).input, 'line');
      return html`<code class="msg">${line ?? name ?? 'tool'}</code>`;
    }
    case 'action_result': {
      const output = stringField((block as { output?: unknown }).output, 'text') ?? '';
      const shown = output.length > MAX_RESULT_CHARS ? `${output.slice(0, MAX_RESULT_CHARS)}…` : output;
      return html`<details><summary>${name ?? 'tool'} output (${output.split('\n').length} lines)</summary><pre class="msg">${shown}</pre></details>`;
    }
    default:
      return html`<span class="muted">[${block.type}${name ? ` ${name}` : ''}]</span>`;
  }
}

/** A run's conversation, execution by execution. */
export function conversationView(conversation: ConversationResponse | undefined): SafeHtml {
  const steps = conversation?.steps ?? [];
  if (!steps.length) return html`<p class="muted">No messages yet.</p>`;
  return html`${steps.map(
    (step) =>
      html`<div class="panel"><p class="muted">${step.description ?? 'Execution'} · ${time(step.started_at)}</p>${step.messages.map(
        (m) => html`<div><strong>${m.role}:</strong> ${m.content.map((block) => blockView(block))}</div>`,
      )}</div>`,
  )}`;
}
