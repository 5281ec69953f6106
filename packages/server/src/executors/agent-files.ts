import { closeSync, constants, fchownSync, fstatSync, lstatSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { walkAgentTree } from './agent-tree.js';
import type { AgentUser } from './sandbox/agent-user.js';

/**
 * Writing files an agent can reach, without letting it steer the server: no link is
 * followed (O_NOFOLLOW), no open blocks (O_NONBLOCK: a FIFO answers at once), only regular
 * files are written (fstat on the open descriptor), and what the server creates is created
 * fresh (O_EXCL) after removing whatever the agent left at that name. Reads of what an
 * agent wrote go through `agent-tree.ts`.
 */
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Who owns what the server makes for the agent: the agent user where the server is root. */
export type FileOwner = AgentUser | undefined;

/** Removes whatever is at `path` (a link is removed, never followed). */
function clear(path: string): void {
  if (lstatSync(path, { throwIfNoEntry: false })) rmSync(path, { recursive: true, force: true });
}

/** Writes `data` to a file created fresh at `path` (whatever was there is removed first), owned by `owner`. */
export function writeAgentFile(path: string, data: string | Buffer, owner: FileOwner, mode = 0o600): void {
  clear(path);
  const fd = openSync(path, CREATE, mode);
  try {
    if (owner) fchownSync(fd, owner.uid, owner.gid);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}

/** Appends to a regular file the server made; false (nothing written) when the agent replaced it with anything else. */
export function appendAgentFile(path: string, data: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, APPEND);
  } catch {
    return false;
  }
  try {
    if (!fstatSync(fd).isFile()) return false;
    writeSync(fd, data);
    return true;
  } finally {
    closeSync(fd);
  }
}

/** A directory made fresh at `path` (whatever the agent left there is removed first), owned by `owner`. */
export function freshAgentDir(path: string, owner: FileOwner, mode = 0o700): void {
  clear(path);
  mkdirSync(path, { mode });
  if (owner) chownDir(path, owner);
}

/**
 * `path` as a real directory of the server (made when missing, with its parents): a link
 * or anything else there is refused, so nothing is created through it.
 */
export function serverDir(path: string, mode = 0o700): void {
  mkdirSync(path, { recursive: true, mode });
  const stat = lstatSync(path);
  if (!stat.isDirectory() || stat.isSymbolicLink()) throw new Error(`${path} is not a directory`);
}

function chownDir(path: string, owner: AgentUser): void {
  const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    fchownSync(fd, owner.uid, owner.gid);
  } finally {
    closeSync(fd);
  }
}

/** Gives the agent user a directory the server made (its working directory), links not followed. */
export function giveDir(path: string, owner: FileOwner): void {
  if (owner) chownDir(path, owner);
}

/**
 * Makes a directory an earlier agent kept (`path`, beneath the server's `root`) safe for the
 * server to write into again: the directory must be a real one (made when missing), and
 * whatever in it is not a plain directory or a regular file with one link (a symbolic
 * link, a FIFO, a device, a hard link to a file elsewhere) is removed, so a later write
 * of the server can neither follow, block on nor alias anything. The walk goes through
 * directory handles, so a directory swapped for a link meanwhile (by another process of
 * the agent's user) is refused, never followed.
 */
export function reclaimTree(root: string, path: string, mode = 0o700): void {
  serverDir(path, mode);
  walkAgentTree(root, path, (dir, name, stat) => {
    if (stat.isDirectory() || (stat.isFile() && stat.nlink === 1)) return true;
    dir.remove(name);
    return false;
  });
}

/** Hands a tree the server wrote (`path`, beneath `root`) to the agent user, the directory and everything in it, through directory handles; links are changed themselves, never followed. */
export function giveTree(root: string, path: string, owner: FileOwner, maxEntries?: number): void {
  if (!owner) return;
  chownDir(path, owner);
  walkAgentTree(
    root,
    path,
    (dir, name) => {
      dir.chown(name, owner.uid, owner.gid);
      return true;
    },
    maxEntries,
  );
}

/** A file created fresh at `path` for the server to write as it goes (a transcript), as a descriptor; whatever was there is removed first. */
export function createServerFile(path: string, mode = 0o600): number {
  clear(path);
  return openSync(path, CREATE, mode);
}
