import { closeSync, constants, fstatSync, lchownSync, lstatSync, openSync, readdirSync, readSync, rmSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';

/**
 * Every read of a tree an agent can write (its execution's directory, artifacts, report,
 * attachments, working directory, a harness's stream): the agent may have put a link, a
 * FIFO or another directory at any name in it, so the server never resolves a path there
 * with its own rights. The walk starts from a directory of the server's (the work root) and
 * opens one name at a time relative to the directory handle it holds, refusing a link at
 * every step (O_NOFOLLOW), and reads only regular files (fstat on the open descriptor),
 * never blocking (O_NONBLOCK: a FIFO answers at once).
 *
 * On Linux a name is opened through the held descriptor (`/proc/self/fd/<fd>/<name>`, as
 * openat would), so swapping a directory after it was opened changes nothing. Where there is
 * no such `/proc`, each name is opened by path and the directory it was opened in is checked
 * to still be the one held (device and inode) after every step.
 */
const DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const FILE = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface BoundedRead {
  text: string;
  truncated: boolean;
  /** Why nothing was read though something is there (a link, a FIFO, a directory). */
  refused?: string | undefined;
}

/** Whether names can be opened through a descriptor's `/proc/self/fd` entry; found once. */
let throughProc: boolean | undefined;

function procWorks(fd: number): boolean {
  if (throughProc === undefined) {
    try {
      const seen = statSync(`/proc/self/fd/${fd}`);
      const held = fstatSync(fd);
      throughProc = seen.isDirectory() && seen.dev === held.dev && seen.ino === held.ino;
    } catch {
      throughProc = false;
    }
  }
  return throughProc;
}

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'EIO';

/** Why a name could not be opened as a directory (a link reads as ENOTDIR), as the notes say it. */
function whyNot(code: string): string {
  return code === 'ENOTDIR' || code === 'ELOOP' ? 'is a symbolic link or not a directory' : `cannot be opened (${code})`;
}

/** One directory of an agent's tree, held open; names in it are opened relative to it. */
export class AgentDir {
  private constructor(
    private readonly fd: number,
    /** Where it was when opened (for messages, and for the walk without `/proc`). */
    readonly path: string,
    private readonly dev: number,
    private readonly ino: number,
  ) {}

  /** The server's own directory an agent's tree lies in (the work root), opened as the operator named it. */
  static root(path: string): AgentDir {
    const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
    const stat = fstatSync(fd);
    procWorks(fd);
    return new AgentDir(fd, path, stat.dev, stat.ino);
  }

  /** The path an fs call resolves for `name` in this directory, following nothing but this directory's descriptor. */
  private at(name: string): string {
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) throw new Error(`"${name}" is not a name within a directory`);
    return throughProc ? `/proc/self/fd/${this.fd}/${name}` : join(this.path, name);
  }

  /** Without `/proc`: that this directory's path still names the directory held, so what was just opened by path lies in it. */
  private unmoved(): boolean {
    if (throughProc) return true;
    const now = lstatSync(this.path, { throwIfNoEntry: false });
    return now !== undefined && now.isDirectory() && now.dev === this.dev && now.ino === this.ino;
  }

  /** The names in this directory, sorted. */
  list(): string[] {
    const names = readdirSync(throughProc ? `/proc/self/fd/${this.fd}` : this.path).sort();
    if (!this.unmoved()) throw Object.assign(new Error(`${this.path} was moved while it was read`), { code: 'ESTALE' });
    return names;
  }

  /** What `name` is, the link itself for a link; undefined when nothing is there. */
  stat(name: string): Stats | undefined {
    const stat = lstatSync(this.at(name), { throwIfNoEntry: false });
    return stat && this.unmoved() ? stat : undefined;
  }

  /** `name` opened as a directory (a link is refused); throws with the error's code. */
  dir(name: string): AgentDir {
    const fd = openSync(this.at(name), DIRECTORY);
    const stat = fstatSync(fd);
    if (!this.unmoved()) {
      closeSync(fd);
      throw Object.assign(new Error(`${this.path} was moved while it was read`), { code: 'ESTALE' });
    }
    return new AgentDir(fd, join(this.path, name), stat.dev, stat.ino);
  }

  /** `name` opened as a regular file, as a descriptor and its size; throws with the error's code, ENOTSUP for anything but a regular file. */
  file(name: string): { fd: number; size: number } {
    const fd = openSync(this.at(name), FILE);
    const stat = fstatSync(fd);
    if (stat.isFile() && this.unmoved()) return { fd, size: stat.size };
    closeSync(fd);
    throw Object.assign(new Error(`${join(this.path, name)} is not a regular file`), { code: stat.isFile() ? 'ESTALE' : 'ENOTSUP' });
  }

  /** A regular file's bytes, or undefined when it is missing, anything else, or over `max` bytes. */
  bytes(name: string, max: number): Buffer | undefined {
    let file: { fd: number; size: number };
    try {
      file = this.file(name);
    } catch {
      return undefined;
    }
    try {
      return file.size > max ? undefined : readFully(file.fd, file.size);
    } finally {
      closeSync(file.fd);
    }
  }

  /** Up to `max` bytes of a regular file; a missing file reads as empty, anything else is refused with the reason. */
  read(name: string, max: number): BoundedRead {
    let file: { fd: number; size: number };
    try {
      file = this.file(name);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') return { text: '', truncated: false };
      return { text: '', truncated: false, refused: code === 'ELOOP' ? 'is a symbolic link' : code === 'ENOTSUP' ? 'is not a regular file' : `cannot be opened (${code})` };
    }
    try {
      return { text: readFully(file.fd, Math.min(file.size, max)).toString('utf8'), truncated: file.size > max };
    } finally {
      closeSync(file.fd);
    }
  }

  /** Removes `name` (not a directory: a link is removed itself, never followed). */
  remove(name: string): void {
    rmSync(this.at(name), { force: true, recursive: false });
  }

  /** Gives `name` to `uid`:`gid` (a link is changed itself, never followed). */
  chown(name: string, uid: number, gid: number): void {
    lchownSync(this.at(name), uid, gid);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Entries a tree the agent kept (a harness's state directory) may hold before the server gives up on it. */
export const MAX_TREE_ENTRIES = 100_000;
const MAX_TREE_DEPTH = 64;

/**
 * Every entry below the directory at `path` (beneath `root`), parents before children,
 * each seen and changed through its directory's handle: `visit` gets the directory, the
 * name and what is there (the link itself for a link), and says whether to go into it (a
 * directory, opened a name at a time: a link put in its place meanwhile is refused).
 */
export function walkAgentTree(
  root: string,
  path: string,
  visit: (dir: AgentDir, name: string, stat: Stats) => boolean,
  maxEntries = MAX_TREE_ENTRIES,
): void {
  let seen = 0;
  const go = (dir: AgentDir, depth: number) => {
    for (const name of dir.list()) {
      if (++seen > maxEntries) throw new Error(`${path} holds more than ${maxEntries} entries`);
      const stat = dir.stat(name);
      if (!stat || !visit(dir, name, stat) || !stat.isDirectory()) continue;
      if (depth >= MAX_TREE_DEPTH) throw new Error(`${path} is nested deeper than ${MAX_TREE_DEPTH} directories`);
      let below: AgentDir;
      try {
        below = dir.dir(name);
      } catch (error) {
        // Swapped for a link (or anything else) since it was seen: nothing beyond it is touched.
        throw Object.assign(new Error(`${join(dir.path, name)} ${whyNot(errorCode(error))}`), { code: errorCode(error) });
      }
      try {
        go(below, depth + 1);
      } finally {
        below.close();
      }
    }
  };
  inAgentDir(root, path, (dir) => go(dir, 1), (code, at) => {
    throw Object.assign(new Error(`${at} ${whyNot(code)}`), { code });
  });
}

function readFully(fd: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

/** The names from `root` down to `path`, which must lie beneath it. */
function namesBeneath(root: string, path: string): string[] {
  const rel = relative(root, path);
  if (rel === '') return [];
  if (isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) throw new Error(`${path} is not beneath ${root}`);
  return rel.split(sep);
}

/** The outcome of walking down to a directory: it, or why the walk stopped (the error's code and the path where). */
export type Opened = { dir: AgentDir } | { code: string; at: string };

/** `path`, beneath the server's directory `root`, opened one name at a time, no link followed. */
export function openAgentDir(root: string, path: string): Opened {
  let dir: AgentDir;
  try {
    dir = AgentDir.root(root);
  } catch (error) {
    // No work root yet (no agent has run): nothing of an agent's to read.
    return { code: errorCode(error), at: root };
  }
  for (const name of namesBeneath(root, path)) {
    let next: AgentDir;
    try {
      next = dir.dir(name);
    } catch (error) {
      const at = join(dir.path, name);
      dir.close();
      return { code: errorCode(error), at };
    }
    dir.close();
    dir = next;
  }
  return { dir };
}

/** `use` on the directory at `path` (beneath `root`), closed after; `otherwise` with why when it cannot be opened. */
export function inAgentDir<T>(root: string, path: string, use: (dir: AgentDir) => T, otherwise: (code: string, at: string) => T): T {
  const opened = openAgentDir(root, path);
  if (!('dir' in opened)) return otherwise(opened.code, opened.at);
  try {
    return use(opened.dir);
  } finally {
    opened.dir.close();
  }
}

/** Up to `max` bytes of the regular file at `path` (beneath `root`); missing (or in a missing directory) reads as empty. */
export function readAgentFile(root: string, path: string, max: number): BoundedRead {
  return inAgentDir(
    root,
    dirname(path),
    (dir) => dir.read(basename(path), max),
    (code, at) => (code === 'ENOENT' ? { text: '', truncated: false } : { text: '', truncated: false, refused: `lies under ${relative(root, at)}, which ${whyNot(code)}` }),
  );
}

/** An open descriptor of the regular file at `path` (beneath `root`) and its size, to stream it; undefined for anything else. */
export function openAgentFile(root: string, path: string): { fd: number; size: number } | undefined {
  return inAgentDir(
    root,
    dirname(path),
    (dir) => {
      try {
        return dir.file(basename(path));
      } catch {
        return undefined;
      }
    },
    () => undefined,
  );
}

/** Whether anything (a link included, never followed) is at `path`, beneath `root`. */
export function agentPathExists(root: string, path: string): boolean {
  return inAgentDir(root, dirname(path), (dir) => dir.stat(basename(path)) !== undefined, () => false);
}
