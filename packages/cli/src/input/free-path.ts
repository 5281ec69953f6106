import { existsSync } from 'node:fs';
import { join, parse } from 'node:path';

/** `dir/name`, or `dir/name (2).ext` and so on when that file exists: a download never overwrites. */
export function freePath(dir: string, name: string): string {
  let candidate = join(dir, name);
  const { name: stem, ext } = parse(name);
  for (let i = 2; existsSync(candidate) || existsSync(`${candidate}.part`); i++) candidate = join(dir, `${stem} (${i})${ext}`);
  return candidate;
}
