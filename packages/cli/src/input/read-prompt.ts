import { readFileSync } from 'node:fs';
import { UsageError } from '../usage-error.js';

/** The prompt from the arguments or from --prompt-file (`-` reads stdin); exactly one of them. */
export function readPrompt(words: string[], promptFile: string | undefined, command: string): string | undefined {
  if (promptFile !== undefined && words.length > 0) {
    throw new UsageError('Give the prompt either as an argument or with --prompt-file, not both.', command);
  }
  if (promptFile === undefined) return words.length > 0 ? words.join(' ') : undefined;
  try {
    // A file's final newline is not part of the instruction.
    return readFileSync(promptFile === '-' ? 0 : promptFile, 'utf8').replace(/\s+$/, '');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`--prompt-file: cannot read ${promptFile} (${code}); give a readable file, or - for stdin.`, command);
  }
}
