import type { GetPromptResult } from '@modelcontextprotocol/server';

/** A prompt's one user message. Arguments are the user's own words, quoted as data, never as instructions to the server. */
export function userMessage(description: string, lines: Array<string | false | undefined>): GetPromptResult {
  return {
    description,
    messages: [{ role: 'user', content: { type: 'text', text: lines.filter((l): l is string => typeof l === 'string').join('\n') } }],
  };
}

/** `value` as a JSON string literal: quotes, newlines and control characters cannot break out of it. */
export const quoted = (value: string) => JSON.stringify(value);
