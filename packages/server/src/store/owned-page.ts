import { invalidField } from '../domain/invalid-request-input.js';

/**
 * A page of a list in insertion order, narrowed in the query to one principal's rows: a key
 * with none reads no one else's. Used by the schedules and the named agents.
 */
export interface OwnedPageQuery {
  /** Only rows this principal created; undefined when every key sees every row. */
  creatorUid: string | undefined;
  /** Rows after this sequence number (0: from the start). */
  afterSeq: number;
  limit: number;
}

export interface OwnedPage<T> {
  records: T[];
  /** The sequence number of the page's last row when more follow. */
  nextSeq: number | undefined;
}

/** Rows fetched one past the limit: the extra one only says whether more follow. */
export function toOwnedPage<R extends { seq: number | string }, T>(rows: R[], limit: number, read: (row: R) => T): OwnedPage<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return { records: kept.map(read), nextSeq: more ? Number(kept.at(-1)!.seq) : undefined };
}

/** The cursor of such a page: opaque to callers, base64url of the last sequence number. */
export function encodeSeqCursor(seq: number): string {
  return Buffer.from(`seq:${seq}`).toString('base64url');
}

/** The sequence number in a cursor this server made, else undefined. */
export function decodeSeqCursor(text: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(text)) return undefined;
  const match = /^seq:(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

/** Where a page starts: after the cursor's row, or at the beginning; a cursor this server did not make is a 400 naming it. */
export function pageStart(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const seq = decodeSeqCursor(cursor);
  if (seq === undefined) throw invalidField('cursor', 'not a cursor from this server; pass page_info.next_cursor as it came.');
  return seq;
}

/** The contract's page_info for a page whose last row is `nextSeq` when more follow. */
export function pageInfo(nextSeq: number | undefined): { has_next_page: boolean; next_cursor?: string } {
  return nextSeq === undefined ? { has_next_page: false } : { has_next_page: true, next_cursor: encodeSeqCursor(nextSeq) };
}

/** `limit` and `cursor` as a list route parsed them. */
export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
}
