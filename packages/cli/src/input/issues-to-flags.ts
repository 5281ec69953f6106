import { issuePath, RequestValidationError } from '@agent-runs/core';
import type { z } from 'zod';

/**
 * Turns schema issues into lines that name the flag the user typed, e.g.
 * `config.model_id: …` → `--model: …`. Paths not in the table keep their field name.
 */
export function issuesToFlags(error: z.ZodError, flagForField: Record<string, string>, what: string): RequestValidationError {
  const lines = error.issues.map((issue) => {
    const field = issuePath(issue.path, 'request');
    const match = Object.keys(flagForField)
      .sort((a, b) => b.length - a.length)
      .find((known) => field === known || field.startsWith(`${known}.`) || field.startsWith(`${known}[`));
    // `--state[1]` reads worse than `--state`: the value is quoted in the message anyway.
    const rest = match ? field.slice(match.length).replace(/^\[\d+\]$/, '') : '';
    const label = match ? `${flagForField[match]}${rest}` : field;
    return `${label}: ${issue.message}`;
  });
  return new RequestValidationError(what, lines);
}
