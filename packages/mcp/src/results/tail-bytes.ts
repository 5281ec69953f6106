/**
 * The end of `text` in at most `maxBytes` of UTF-8, starting on a whole character (and on a
 * line when one starts within the kept part), with how many bytes were left out.
 */
export function tailBytes(text: string, maxBytes: number): { text: string; omittedBytes: number } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, omittedBytes: 0 };
  let start = bytes.length - maxBytes;
  // Continuation bytes (10xxxxxx) belong to the character before: skip to the next one's start.
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start += 1;
  const newline = bytes.indexOf(0x0a, start);
  if (newline !== -1 && newline + 1 < bytes.length) start = newline + 1;
  return { text: bytes.subarray(start).toString('utf8'), omittedBytes: start };
}
