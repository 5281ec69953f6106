import type { ConversationMessage, ConversationResponse, ConversationStep } from '@agent-runs/core/contract';
import type { ConversationEntry } from '../executors/execution-input.js';
import type { RunRecord } from '../store/run-record.js';
import { conversationIdOf } from './conversation-id.js';

function message(id: string, role: 'user' | 'assistant', text: string, at: string): ConversationMessage {
  return { message_ids: [id], role, timestamp: at, content: [{ type: 'text', message_id: id, text }] };
}

/**
 * The contract's normalised conversation: one step per execution, holding what was asked
 * (the prompt or the follow-ups it answered) and the agent's result. Follow-ups no
 * execution has taken yet form a last step without a result.
 */
export function toConversationResponse(run: RunRecord, entries: readonly ConversationEntry[]): ConversationResponse {
  const steps = new Map<number, ConversationStep>();
  const last = Math.max(1, ...entries.map((e) => e.execution ?? 0));
  const stepOf = (execution: number | null): ConversationStep => {
    const n = execution ?? last + 1;
    let step = steps.get(n);
    if (!step) {
      step = { id: `${run.id}:${n}`, messages: [], steps: [] };
      steps.set(n, step);
    }
    return step;
  };
  entries.forEach((entry, i) => {
    const step = stepOf(entry.execution);
    const id = entry.kind === 'followup' ? entry.id : `${run.id}:${entry.kind}:${i}`;
    step.messages.push(message(id, entry.role, entry.text, entry.created_at));
    step.started_at ??= entry.created_at;
    if (entry.kind === 'result') {
      step.completed_at = entry.created_at;
      step.summary = entry.text;
    } else {
      step.description ??= entry.text;
    }
  });
  return { conversation_id: conversationIdOf(run), steps: [...steps.entries()].sort(([a], [b]) => a - b).map(([, step]) => step) };
}
