import type { CommandContext } from './command.js';
import { UsageError } from './usage-error.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * Calls `onSignal` on each Ctrl-C or SIGTERM until the returned function is called: the
 * long-lived local processes (`serve`, `worker`) stop on the first, and a worker stops its
 * runs at once on the second.
 */
export function onStopSignals(ctx: CommandContext, onSignal: (signal: StopSignal) => void): () => void {
  let disposed = false;
  let stopInterrupt = ctx.io.onInterrupt(onInterrupt);
  function onInterrupt() {
    onSignal('SIGINT');
    // The io's handler fires once: listen again, for the next Ctrl-C.
    if (!disposed) stopInterrupt = ctx.io.onInterrupt(onInterrupt);
  }
  const onTerm = () => onSignal('SIGTERM');
  process.on('SIGTERM', onTerm);
  return () => {
    disposed = true;
    stopInterrupt();
    process.removeListener('SIGTERM', onTerm);
  };
}

/** What to tell a user whose local process cannot listen where it was asked to. */
export interface ListenHelp {
  /** The address a name that does not resolve was given as (`--host example`). */
  name: string;
  /** The address taken, refused or not of this machine (`127.0.0.1:8080`). */
  address: string;
  /** What to do about each. */
  nameFix: string;
  addressFix: string;
}

/**
 * What a local process's start threw, as the user should read it: the server package's
 * configuration errors and an address it cannot listen on become usage errors of `command`
 * (exit 2, no stack trace); anything else is returned unchanged.
 */
export function startError(error: unknown, command: string, isConfigError: (error: unknown) => boolean, listen?: ListenHelp): unknown {
  if (isConfigError(error)) return new UsageError((error as Error).message, command);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (!listen) return error;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new UsageError(`Cannot listen on ${listen.name}: the name does not resolve (${code}). ${listen.nameFix}`, command);
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') return new UsageError(`Cannot listen on ${listen.address} (${code}): ${listen.addressFix}`, command);
  return error;
}
