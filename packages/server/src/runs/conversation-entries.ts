import type { ConversationEntry } from '../executors/execution-input.js';
import type { RunMessage } from '../store/conversations/conversation-store.js';
import type { RunRecord } from '../store/runs/run-record.js';

/** The run's conversation as the agent's file lists it: the prompt, then follow-ups and results in order. */
export function conversationEntries(run: RunRecord, messages: readonly RunMessage[]): ConversationEntry[] {
  const entries: ConversationEntry[] = [{ kind: 'prompt', role: 'user', text: run.prompt, created_at: run.createdAt, execution: 1 }];
  for (const m of messages) {
    if (m.kind === 'followup') {
      entries.push({ kind: 'followup', role: 'user', id: m.id, text: m.text, mode: m.mode, created_at: m.createdAt, execution: m.execution });
    } else {
      entries.push({ kind: 'result', role: 'assistant', text: m.text, state: m.state ?? '', created_at: m.createdAt, execution: m.execution ?? 0 });
    }
  }
  return entries;
}
