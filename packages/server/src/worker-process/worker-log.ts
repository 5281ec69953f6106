import { maskedLog } from '../domain/secret-mask.js';

/**
 * Characters a terminal or log viewer would act on instead of showing (C0 and C1 controls,
 * DEL, line separators, bidirectional overrides): a run id or a server's message could carry
 * them to forge or hide lines.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Text from a run or the server, made one plain line. */
export const plainText = (text: string): string => text.replace(INVISIBLE, '');

/** The worker's log: one line each, control characters stripped, the named secrets masked; nothing when quiet. */
export function workerLog(quiet: boolean, secrets: readonly string[], write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): (line: string) => void {
  if (quiet) return () => {};
  return maskedLog((line) => write(plainText(line)), secrets);
}
