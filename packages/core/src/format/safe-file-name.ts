/**
 * A file name from a run (an artifact's, an attachment's), made safe to write under a
 * directory of one's own: the last path segment only (no `../`, no absolute path),
 * without control characters or bidi overrides and isolates (which show `bidi\u202etxt.exe`
 * as `bidiexe.txt`), at most 200 characters, never empty, `.` or `..`.
 */
export function safeFileName(name: string, fallback: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g, '').trim().slice(0, 200);
  return clean === '' || clean === '.' || clean === '..' ? fallback : clean;
}
