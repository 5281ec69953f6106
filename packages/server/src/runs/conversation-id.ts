import type { RunRecord } from '../store/runs/run-record.js';

/** The conversation a run belongs to; a run stored before runs had one is a conversation of its own, under its id. */
export function conversationIdOf(run: RunRecord): string {
  return run.conversationId ?? run.id;
}
