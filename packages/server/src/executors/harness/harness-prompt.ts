import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../store/runs/run-record.js';
import type { ExecutionInput } from '../execution-input.js';

/**
 * What a run in `mode: orchestrate` (on its create, or the follow-up being answered) is told
 * before its task: to plan, hand the parts to child runs through the `agent-runs` MCP server
 * its harness is given (bound to the run's own token, so each run it creates is its child),
 * wait for them, and answer with what they did. Documented as it is in the server's README.
 */
export const ORCHESTRATE_PROMPT = `You are orchestrating this task: do not do all of it yourself.
1. Plan: split the task into independent parts a separate agent can do from a self-contained prompt.
2. Start one child run per part with the create_run tool of the agent-runs MCP server (each run you create is a child of this one).
3. Wait for each with wait_for_run; read what they tell you with read_messages, and tell them more with send_message.
4. Check their results, start another run for a part that failed if it is worth it, then answer with what was done, part by part, naming each child run's id.

The task:
`;

/** Whether this execution answers an orchestrate request: its run's mode on the first, the follow-ups' on a later one. */
const orchestrates = (run: RunRecord, input: ExecutionInput): boolean =>
  input.number === 1 ? run.mode === 'orchestrate' : input.followups.some((f) => f.mode === 'orchestrate');

/**
 * What the harness is asked: the prompt (with the run's attached files named by path) for
 * the first execution; the follow-ups for a later one, which resumes the harness's session.
 * Without a session to resume, a follow-up carries the conversation so far.
 */
export function harnessPrompt(run: RunRecord, input: ExecutionInput, attachmentsDir: string): string {
  const prompt = taskPrompt(run, input, attachmentsDir);
  return orchestrates(run, input) ? `${ORCHESTRATE_PROMPT}${prompt}` : prompt;
}

function taskPrompt(run: RunRecord, input: ExecutionInput, attachmentsDir: string): string {
  let files: string[] = [];
  try {
    files = readdirSync(attachmentsDir).map((name) => join(attachmentsDir, name));
  } catch {
    // No attachments directory: nothing attached.
  }
  const attached = files.length > 0 ? `\n\nAttached files:\n${files.map((f) => `- ${f}`).join('\n')}` : '';
  if (input.number === 1) {
    const early = input.followups.map((f) => f.message).join('\n\n');
    return `${run.prompt}${early ? `\n\n${early}` : ''}${attached}`;
  }
  const followups = input.followups.map((f) => f.message).join('\n\n');
  if (run.harnessSessionId) return followups;
  const history = input.conversation
    .filter((entry) => entry.kind !== 'followup' || entry.execution !== input.number)
    .map((entry) => `${entry.role === 'user' ? 'User' : 'Assistant'}: ${entry.text}`)
    .join('\n\n');
  return `The conversation so far:\n\n${history}\n\nNow: ${followups}${attached}`;
}
