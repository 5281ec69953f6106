import { realpathSync } from 'node:fs';
import { sep } from 'node:path';

const SYSTEM = /^\/(usr|bin|sbin|lib|lib32|lib64|libx32|etc|opt)(\/|$)/;

/**
 * What a sandbox must show read-only to start an installed CLI, and the path to start it
 * by: its real path (links resolved outside, so none needs to exist inside), and the
 * outermost `node_modules` it lives in (an npm install: its dependencies and platform
 * binary beside it), else the executable file alone. Nothing when it is a system file.
 */
export function installRoot(command: string): { command: string; readOnly: string[] } {
  let real: string;
  try {
    real = realpathSync(command);
  } catch {
    return { command, readOnly: [] };
  }
  if (SYSTEM.test(real)) return { command: real, readOnly: [] };
  const parts = real.split(sep);
  const at = parts.indexOf('node_modules');
  return { command: real, readOnly: [at > 0 ? parts.slice(0, at + 1).join(sep) : real] };
}
