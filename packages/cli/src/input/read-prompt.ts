import { readPromptFile } from '@agent-runs/core';
import { UsageError } from '../usage-error.js';

/** The prompt from the arguments or from --prompt-file (`-` reads stdin); exactly one of them. */
export function readPrompt(words: string[], promptFile: string | undefined, command: string): string | undefined {
  if (promptFile !== undefined && words.length > 0) {
    throw new UsageError('Give the prompt either as an argument or with --prompt-file, not both.', command);
  }
  if (promptFile === undefined) return words.length > 0 ? words.join(' ') : undefined;
  return readPromptFile(promptFile, '--prompt-file');
}
