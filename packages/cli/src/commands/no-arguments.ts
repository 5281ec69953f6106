import type { ParsedFlags } from '../flags/parsed-flags.js';
import { UsageError } from '../usage-error.js';

/** For commands that take flags only. */
export function noArguments(flags: ParsedFlags): void {
  if (flags.positionals.length) throw new UsageError(`"${flags.command}" takes no arguments, got "${flags.positionals.join(' ')}".`, flags.command);
}
