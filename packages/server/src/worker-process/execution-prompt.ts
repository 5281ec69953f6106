import type { ExecutionContext } from '../executors/run-executor.js';

/**
 * What a remote execution's agent is asked (a Job's pod, a dispatched entrypoint): the run's
 * prompt, or the follow-ups this execution answers.
 */
export function executionPrompt(context: ExecutionContext): string {
  const { run, input } = context;
  return input.number === 1 && input.followups.length === 0 ? run.prompt : input.followups.map((f) => f.message).join('\n\n') || run.prompt;
}
