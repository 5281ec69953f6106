/**
 * A file name from a run (an artifact's, an attachment's), made safe to write under a
 * directory of one's own: the last path segment only (no `../`, no absolute path),
 * without control characters, at most 200 characters, never empty, `.` or `..`.
 */
export function safeFileName(name: string, fallback: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().slice(0, 200);
  return clean === '' || clean === '.' || clean === '..' ? fallback : clean;
}
