import { describeIssues, validationIssues } from '@agent-runs/core/contract';
import { InvalidInputError } from './domain-errors.js';

/**
 * A failed parse of a request's `root` (`body`, `query`) as an InvalidInputError: one issue
 * per field, the whole value named `root`, and the issues joined as the message.
 */
export function invalidInput(error: Parameters<typeof validationIssues>[0], root: string): InvalidInputError {
  const issues = validationIssues(error).map((issue) => ({ path: issue.path || root, message: issue.message }));
  return new InvalidInputError(issues, describeIssues(issues, root).join('; '));
}

/** One field at fault, with the message as the caller reads it (`field: what`). */
export function invalidField(path: string, message: string, detail = `${path}: ${message}`): InvalidInputError {
  return new InvalidInputError([{ path, message }], detail);
}

/** Problems given as `field: what` lines (an executor's checks) as one InvalidInputError. */
export function invalidLines(lines: readonly string[]): InvalidInputError {
  const issues = lines.map((line) => {
    const at = /^([\w.[\]-]+): ([\s\S]*)$/.exec(line);
    return at ? { path: at[1]!, message: at[2]! } : { path: '', message: line };
  });
  return new InvalidInputError(issues, lines.join('; '));
}
