import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../store/runs/run-record.js';
import type { ExecutionInput } from '../execution-input.js';

/**
 * What the harness is asked: the prompt (with the run's attached files named by path) for
 * the first execution; the follow-ups for a later one, which resumes the harness's session.
 * Without a session to resume, a follow-up carries the conversation so far.
 */
export function harnessPrompt(run: RunRecord, input: ExecutionInput, attachmentsDir: string): string {
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
