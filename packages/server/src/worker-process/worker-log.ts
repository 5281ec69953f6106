import { plainText } from '../domain/one-line.js';
import { maskedLog } from '../domain/secret-mask.js';


/** The worker's log: one line each, control characters stripped, the named secrets masked; nothing when quiet. */
export function workerLog(quiet: boolean, secrets: readonly string[], write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): (line: string) => void {
  if (quiet) return () => {};
  return maskedLog((line) => write(plainText(line)), secrets);
}
