/**
 * The end of `text` in at most `maxBytes` of UTF-8, starting on a whole character (mid-line
 * when a line is longer than the bound), with how many bytes were left out.
 */
export function tailBytes(text: string, maxBytes: number): { text: string; omittedBytes: number } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, omittedBytes: 0 };
  let start = bytes.length - maxBytes;
  // Continuation bytes (10xxxxxx) belong to the character before: skip to the next one's start.
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start += 1;
  return { text: bytes.subarray(start).toString('utf8'), omittedBytes: start };
}
