import type { KnownRunSourceType } from './run-source-type.js';

/**
 * How a client tells the server which kind of caller it is, so that the server can
 * record the run's `source`. Servers that do not know the header ignore it.
 */
export const CALLER_SOURCE_HEADER = 'x-agent-runs-source';

/** The sources a caller may claim; anything else is recorded as API. */
export const CLAIMABLE_SOURCES: readonly KnownRunSourceType[] = ['API', 'CLI', 'GITHUB_ACTION'];

export function sourceFromHeader(value: string | string[] | undefined): KnownRunSourceType {
  const claimed = (Array.isArray(value) ? value[0] : value)?.trim().toUpperCase();
  return (CLAIMABLE_SOURCES as readonly string[]).includes(claimed ?? '') ? (claimed as KnownRunSourceType) : 'API';
}
