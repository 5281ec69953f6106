import { randomFillSync } from 'node:crypto';

// Random bytes drawn in blocks: one call to the generator serves 256 ids.
const pool = Buffer.alloc(16 * 256);
let offset = pool.length;

/**
 * A UUID version 7: a millisecond timestamp, then 74 random bits. New ids sort after old
 * ones, so inserting one touches the end of its index instead of a random page.
 */
export function timeOrderedId(now = Date.now()): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + 16));
  offset += 16;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
