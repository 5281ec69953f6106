import { existsSync } from 'node:fs';
import { join, parse } from 'node:path';

/**
 * A name from a run, made safe to write under a directory of the user's: the last path
 * segment only (no `../`), without control characters, never empty.
 */
export function safeFileName(name: string, fallback: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().slice(0, 200);
  return clean === '' || clean === '.' || clean === '..' ? fallback : clean;
}

/** `dir/name`, or `dir/name (2).ext` and so on when that file exists: a download never overwrites. */
export function freePath(dir: string, name: string): string {
  let candidate = join(dir, name);
  const { name: stem, ext } = parse(name);
  for (let i = 2; existsSync(candidate) || existsSync(`${candidate}.part`); i++) candidate = join(dir, `${stem} (${i})${ext}`);
  return candidate;
}
