import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/** The first executable `name` on PATH, or undefined. */
export function findProgram(name: string, path: string | undefined = process.env.PATH): string | undefined {
  const dirs = (path ?? "").split(":").filter(Boolean);
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; the next directory.
    }
  }
  return undefined;
}
