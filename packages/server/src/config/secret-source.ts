import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';

/** Largest secret file read. */
const MAX_SECRET_BYTES = 64 * 1024;

export type SecretSource = { from_env: string } | { from_file: string };

/**
 * A declared secret's value, from its variable or its file (one trailing newline dropped),
 * or the problem, which names the source and never the value.
 */
export function readSecretValue(source: SecretSource, base: string, env: Record<string, string | undefined>): string | { problem: string } {
  if ('from_env' in source) {
    const value = env[source.from_env];
    return value ? value : { problem: `the variable ${source.from_env} is not set (or empty) in the server's environment.` };
  }
  const path = resolve(base, source.from_file);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { problem: `cannot read ${path} (${(error as NodeJS.ErrnoException).code}).` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: `${path} is not a regular file.` };
    if (stat.size > MAX_SECRET_BYTES) return { problem: `${path} is larger than ${MAX_SECRET_BYTES} bytes.` };
    const buffer = Buffer.alloc(stat.size);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const value = buffer.subarray(0, read).toString('utf8').replace(/\r?\n$/, '');
    return value ? value : { problem: `${path} is empty.` };
  } finally {
    closeSync(fd);
  }
}
