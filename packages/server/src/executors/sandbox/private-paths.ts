import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** Which of `stat`'s permission bits (read 4, execute 1) apply to the user `uid` in groups `gids`. */
function bitsFor(stat: Stats, uid: number, gids: ReadonlySet<number>): number {
  if (stat.uid === uid) return (stat.mode >> 6) & 7;
  if (gids.has(stat.gid)) return (stat.mode >> 3) & 7;
  return stat.mode & 7;
}

/**
 * What under `roots` the user `uid` (in groups `gids`) may read and nobody else may: a
 * directory others cannot enter (nothing below it is listed), a regular file others cannot
 * read. A server that is not root shows these to its agents, which run as its own uid,
 * unless the sandbox hides them: the server's secret files and configuration kept in
 * `/etc`. Links are not followed; what the user cannot read is not listed either.
 */
export function privatePaths(roots: readonly string[], uid: number, gids: readonly number[]): string[] {
  const groups = new Set(gids);
  const found: string[] = [];
  const visit = (path: string): void => {
    let stat: Stats | undefined;
    try {
      stat = lstatSync(path);
    } catch {
      return;
    }
    const mine = bitsFor(stat, uid, groups);
    if (stat.isDirectory()) {
      // Others cannot enter it: hidden whole when the user can; ignored when neither can.
      if ((stat.mode & 1) === 0) {
        if (mine & 1) found.push(path);
        return;
      }
      let names: string[];
      try {
        names = readdirSync(path);
      } catch {
        return;
      }
      for (const name of names) visit(join(path, name));
    } else if (stat.isFile() && (stat.mode & 4) === 0 && mine & 4) {
      found.push(path);
    }
  };
  for (const root of roots) visit(root);
  return found;
}
