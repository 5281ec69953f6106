import { AgentRunsError } from './agent-runs-error.js';

/** What a file-system error code means to a person saving a file. */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EEXIST: 'a file is in the way of a folder on that path',
  ENOTDIR: 'a file is in the way of a folder on that path',
  EISDIR: 'it is a folder',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  ENAMETOOLONG: 'the name is too long',
};

/**
 * `artifacts.download` to a path that cannot be written here (a file where a folder should
 * be, no permission, a full disk): a local problem, not the network's, so not retried.
 */
export class DownloadWriteError extends AgentRunsError {
  override name = 'DownloadWriteError';
  /** The file-system error code (`EACCES`, `ENOSPC`...), when there is one. */
  readonly code: string | undefined;

  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const reason = (code && REASONS[code]) ?? (cause instanceof Error ? cause.message : String(cause));
    super(`Could not save the download to ${path}: ${reason}.`, { cause });
    this.code = code;
  }
}

/** An error from the local file system (it names a path), as opposed to one from the network. */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  const { syscall, path } = (error ?? {}) as NodeJS.ErrnoException;
  return typeof syscall === 'string' && typeof path === 'string';
}
