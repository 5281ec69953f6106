import { exitedCleanly, howItEnded, type AgentExit } from './agent-process.js';
import type { ExecutionOutcome } from './run-executor.js';

/**
 * The one place where how an agent's process ended becomes its execution's outcome.
 * A clean exit is SUCCEEDED, with what the agent said of its result (`result`) as the
 * status. Otherwise FAILED: a start that failed or a deadline passed is the server's side
 * (`internal_error`; a deadline may be retried), anything else the agent's, told by its
 * own result where it gave one, else by `subject`, how it ended and its `lastWords`
 * (already worded: `: <stderr tail>`, `; its last lines:\n…`).
 */
export function exitOutcome(exit: AgentExit, timeoutMs: number, subject: string, said: { result?: string | undefined; lastWords?: string | undefined } = {}): ExecutionOutcome {
  if (exitedCleanly(exit)) return { state: 'SUCCEEDED', ...(said.result ? { statusMessage: { message: said.result } } : {}) };
  const how = `${subject} ${howItEnded(exit, timeoutMs)}`;
  if (exit.error) return { state: 'FAILED', statusMessage: { message: how, error_code: 'internal_error', retryable: false } };
  if (exit.timedOut) return { state: 'FAILED', statusMessage: { message: `${how}.`, error_code: 'internal_error', retryable: true } };
  return { state: 'FAILED', statusMessage: { message: said.result ?? (said.lastWords ? `${how}${said.lastWords}` : `${how}.`), retryable: false } };
}
