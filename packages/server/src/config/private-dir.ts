import { lstatSync, mkdirSync } from 'node:fs';
import { ServerConfigError } from '../domain/server-config-error.js';

/**
 * Makes `dir` (0700) or checks the one there: a real directory of this user, not a link.
 * The default work directory sits under the shared temp directory, where another user
 * could otherwise have made it first.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
    throw new ServerConfigError(`workDir ${dir} is not a directory of this user; remove it or choose another --work-dir.`);
  }
}
