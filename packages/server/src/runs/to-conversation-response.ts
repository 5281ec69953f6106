import type { ConversationMessage, ConversationResponse, ConversationStep } from '@agent-runs/core/contract';
import type { ConversationEntry } from '../executors/execution-input.js';
import type { RunRecord } from '../store/runs/run-record.js';
import { conversationIdOf } from './conversation-id.js';

function message(id: string, role: 'user' | 'assistant', text: string, at: string): ConversationMessage {
  return { message_ids: [id], role, timestamp: at, content: [{ type: 'text', message_id: id, text }] };
}

function endsWithText(step: ConversationStep, text: string): boolean {
  const last = step.messages.at(-1);
  const block = last?.role === 'assistant' ? last.content.at(-1) : undefined;
  return block?.type === 'text' && block['text'] === text;
}

/**
 * The contract's normalised conversation: one step per execution, holding what was asked
 * (the prompt or the follow-ups it answered), the agent's turn where its harness recorded
 * one (`turns`: its text, tool calls and their results), and its result. Follow-ups no
 * execution has taken yet form a last step without a result.
 */
export function toConversationResponse(
  run: RunRecord,
  entries: readonly ConversationEntry[],
  turns: (execution: number) => ConversationMessage[] = () => [],
): ConversationResponse {
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
  const withTurns = new Set<number>();
  /** The execution's turn, once, after what was asked and before its result. */
  const addTurns = (execution: number | null, step: ConversationStep) => {
    if (execution === null || withTurns.has(execution)) return;
    withTurns.add(execution);
    step.messages.push(...turns(execution));
  };
  entries.forEach((entry, i) => {
    const step = stepOf(entry.execution);
    if (entry.kind === 'result') addTurns(entry.execution, step);
    const id = entry.kind === 'followup' ? entry.id : `${run.id}:${entry.kind}:${i}`;
    // A result the agent's turn already ends with (its last text) is not said twice.
    if (!(entry.kind === 'result' && endsWithText(step, entry.text))) step.messages.push(message(id, entry.role, entry.text, entry.created_at));
    step.started_at ??= entry.created_at;
    if (entry.kind === 'result') {
      step.completed_at = entry.created_at;
      step.summary = entry.text;
    } else {
      step.description ??= entry.text;
    }
  });
  // An execution still running, or one that ended with no result recorded, shows its turn so far.
  for (const [n, step] of steps) if (n <= last) addTurns(n, step);
  return { conversation_id: conversationIdOf(run), steps: [...steps.entries()].sort(([a], [b]) => a - b).map(([, step]) => step) };
}
