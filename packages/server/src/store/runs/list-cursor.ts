import type { SortField, SortOrder } from './run-store.js';

/** Where a page ends: the sort key and insertion order of its last run, and the sort it belongs to. */
export interface ListCursor {
  sortBy: SortField;
  sortOrder: SortOrder;
  value: string;
  seq: number;
}

/** Opaque to callers: base64url JSON, so nobody is tempted to build one. */
export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.sortBy, cursor.sortOrder, cursor.value, cursor.seq])).toString('base64url');
}

const SORTS = new Set(['updated_at', 'created_at', 'title', 'agent']);

/** The cursor in `text`, or undefined when it is not one this server made. */
export function decodeCursor(text: string): ListCursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return undefined;
  const [sortBy, sortOrder, value, seq] = parsed as unknown[];
  if (typeof sortBy !== 'string' || !SORTS.has(sortBy)) return undefined;
  if (sortOrder !== 'asc' && sortOrder !== 'desc') return undefined;
  if (typeof value !== 'string' || typeof seq !== 'number' || !Number.isSafeInteger(seq)) return undefined;
  return { sortBy: sortBy as SortField, sortOrder, value, seq };
}
