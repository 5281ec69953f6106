import type { ExecutionInput } from '../../executors/execution-input.js';
import { fileArtifact } from '../../executors/collect-artifact-files.js';
import type { NewArtifact } from '../../store/artifacts/artifact-store.js';
import type { FileLimits } from './job-limits.js';

/** A path's length, at most, as the local executor's walk could make it (8 levels of names). */
const MAX_PATH_CHARS = 2_048;
/** C0 and C1 controls and DEL: a name holding one could rewrite a terminal or a log line. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The limits an execution's entrypoint keeps, from what the server gave the execution. */
export function fileLimitsOf(input: ExecutionInput): FileLimits {
  return {
    max_file_bytes: input.limits.maxFileBytes,
    max_run_bytes: input.limits.maxRunBytes,
    max_count: input.limits.maxArtifactsPerExecution,
    used_bytes: input.usedBytes,
  };
}

/**
 * Why a file's path, as a pod sent it, is refused, or undefined when it is a plain relative
 * path: names separated by `/`, none empty, `.` or `..`, no backslash, no control character.
 * The pod is the agent's: nothing it names is trusted.
 */
export function filePathProblem(path: string): string | undefined {
  if (path === '') return 'the file path is empty';
  if (path.length > MAX_PATH_CHARS) return `the file path is longer than ${MAX_PATH_CHARS} characters`;
  if (CONTROL.test(path)) return 'the file path holds a control character';
  if (path.includes('\\')) return 'the file path holds a backslash (use / between names)';
  if (path.split('/').some((name) => name === '' || name === '.' || name === '..')) return 'the file path must be relative, with no empty, "." or ".." names';
  return undefined;
}

/**
 * The files one execution's entrypoint sent back, taken in as FILE artifacts (images as
 * SCREENSHOT, as the local executor makes them) within the run's limits. A path sent again
 * (an upload tried again after its answer was lost) replaces the first.
 */
export class ReceivedFiles {
  private readonly byPath = new Map<string, NewArtifact>();
  private bytes = 0;

  constructor(readonly limits: FileLimits) {}

  /** Undefined when taken; else the status and why. */
  take(path: string, content: Buffer): { status: number; message: string } | undefined {
    const problem = filePathProblem(path);
    if (problem) return { status: 400, message: problem };
    const { max_file_bytes: maxFile, max_run_bytes: maxRun, max_count: maxCount, used_bytes: used } = this.limits;
    if (content.length > maxFile) return { status: 413, message: `the file is ${content.length} bytes, over the limit of ${maxFile} bytes per file` };
    const before = this.byPath.get(path);
    const others = this.bytes - (before?.content?.length ?? 0);
    if (used + others + content.length > maxRun) return { status: 413, message: `the file would take the run past its limit of ${maxRun} bytes of files` };
    if (!before && this.byPath.size >= maxCount) return { status: 413, message: `an execution keeps at most ${maxCount} files` };
    this.byPath.set(path, fileArtifact(path, content));
    this.bytes = others + content.length;
    return undefined;
  }

  list(): NewArtifact[] {
    return [...this.byPath.values()];
  }
}
