import { readFileSync } from 'node:fs';
import { RequestValidationError } from '../errors/request-validation-error.js';

/** The largest prompt file read: a prompt is instructions, not data (attach data instead). */
export const PROMPT_FILE_MAX_BYTES = 1024 * 1024;

/**
 * The prompt in a file (`-` reads stdin), trailing whitespace removed. Throws a
 * RequestValidationError naming `name` (a flag or input) when the file cannot be read,
 * is empty, or is larger than PROMPT_FILE_MAX_BYTES.
 */
export function readPromptFile(path: string, name = 'prompt-file'): string {
  const fail = (message: string) => new RequestValidationError(name, [{ path: name, message }]);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path === '-' ? 0 : path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw fail(`cannot read ${path} (${code}); give a readable file, or - for stdin`);
  }
  if (bytes.length > PROMPT_FILE_MAX_BYTES) {
    throw fail(`${path} is larger than ${PROMPT_FILE_MAX_BYTES / 1024 / 1024} MiB; a prompt file holds instructions (give data as attachments)`);
  }
  const text = bytes.toString('utf8').replace(/\s+$/, '');
  if (text.trim() === '') throw fail(`${path} is empty; it must hold the prompt`);
  return text;
}
