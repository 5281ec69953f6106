import type { ParsedFlags } from '../flags/parsed-flags.js';
import { UsageError } from '../usage-error.js';

/** The single `<run-id>` argument of get, wait and cancel. */
export function runIdArgument(flags: ParsedFlags): string {
  const [runId, ...extra] = flags.positionals;
  if (runId === undefined || runId.trim() === '') {
    throw new UsageError(`Missing <run-id>: "${flags.command}" needs the id of a run (see the list command).`, flags.command);
  }
  if (extra.length > 0) {
    throw new UsageError(`"${flags.command}" takes one <run-id>, got ${flags.positionals.length} arguments.`, flags.command);
  }
  return runId.trim();
}
