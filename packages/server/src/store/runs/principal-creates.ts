import type { TableDescription } from '../table-description.js';

/** A principal's creates of the last minute, and the second (`2026-11-29T10:00:00`) of the oldest of them. */
export interface RecentCreates {
  count: number;
  oldestSecond: string | undefined;
}

/**
 * The `principal_creates` table: per principal (a run's `creator_uid`), its creates per second
 * of the last minute, on a ring of 60 slots (the second of the minute), each holding the
 * second it counts and how many runs were created in it. An insert trigger on `runs` adds to
 * its slot, starting it again from 1 when the slot held an older second; so the table never
 * grows past 60 rows a principal, needs no pruning, and a creates_per_minute check reads at
 * most 60 rows instead of counting up to its limit of runs. Counted to the second: a create
 * is in the window by the second it was made in.
 */
export const PRINCIPAL_CREATES_TABLE: TableDescription<never, never> = {
  name: 'principal_creates',
  withoutRowid: true,
  columns: [
    { name: 'creator_uid', type: 'text', notNull: true },
    { name: 'slot', type: 'int32', notNull: true },
    // The run's created_at to the second, compared as text (RFC 3339 in UTC orders by bytes).
    { name: 'second', type: 'text', notNull: true, byteOrder: true },
    { name: 'n', type: 'integer', notNull: true, default: '0' },
  ],
  keys: [{ kind: 'primary', on: 'creator_uid, slot' }],
};

const SECOND = 'substr(NEW.created_at, 1, 19)';
const SLOT = (cast: (sql: string) => string) => cast('substr(NEW.created_at, 18, 2)');
/** The slot's count after one more create: one more in the same second, a new second starts at 1, a straggler of an older second (clock skew between servers) is left out. */
const ADD_ONE = (slot: string) => `n = CASE WHEN ${slot}.second = ${SECOND} THEN ${slot}.n + 1 WHEN ${slot}.second < ${SECOND} THEN 1 ELSE ${slot}.n END`;

/** SQLite: the slot made when missing (not INSERT OR IGNORE, which the outer statement's OR FAIL overrides), then moved. */
export const SQLITE_CREATE_COUNT_TRIGGER = `
CREATE TRIGGER runs_count_creates AFTER INSERT ON runs
BEGIN
  INSERT INTO principal_creates (creator_uid, slot, second, n) SELECT NEW.creator_uid, ${SLOT((s) => `CAST(${s} AS INTEGER)`)}, ${SECOND}, 0
    WHERE NOT EXISTS (SELECT 1 FROM principal_creates WHERE creator_uid = NEW.creator_uid AND slot = ${SLOT((s) => `CAST(${s} AS INTEGER)`)});
  UPDATE principal_creates SET ${ADD_ONE('principal_creates')}, second = max(second, ${SECOND})
    WHERE creator_uid = NEW.creator_uid AND slot = ${SLOT((s) => `CAST(${s} AS INTEGER)`)};
END;
`;

/** PostgreSQL: one upsert per create, on the principal's slot of the second. */
export const POSTGRES_CREATE_COUNT_TRIGGER = `
CREATE FUNCTION runs_count_creates() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO principal_creates AS p (creator_uid, slot, second, n) VALUES (NEW.creator_uid, ${SLOT((s) => `${s}::integer`)}, ${SECOND}, 1)
  ON CONFLICT (creator_uid, slot) DO UPDATE SET ${ADD_ONE('p')}, second = GREATEST(p.second, excluded.second);
  RETURN NULL;
END
$fn$;
CREATE TRIGGER runs_count_creates AFTER INSERT ON runs FOR EACH ROW EXECUTE FUNCTION runs_count_creates();
`;

/**
 * The creates of the last minute of a database that had runs before the table: `at(seconds)`
 * the SQL of now plus that many seconds as RFC 3339 text. Bounded on both sides to 60 seconds,
 * so no two seconds share a slot (a run dated ahead by a skewed clock is left out).
 */
const backfillCreates = (at: (seconds: number) => string, slot: string) => `INSERT INTO principal_creates (creator_uid, slot, second, n)
SELECT creator_uid, ${slot}, substr(created_at, 1, 19), count(*) FROM runs WHERE created_at >= ${at(-59)} AND created_at < ${at(1)}
GROUP BY creator_uid, ${slot}, substr(created_at, 1, 19);`;
export const SQLITE_BACKFILL_CREATES = backfillCreates((seconds) => `strftime('%Y-%m-%dT%H:%M:%S', 'now', '${seconds} seconds')`, 'CAST(substr(created_at, 18, 2) AS INTEGER)');
export const POSTGRES_BACKFILL_CREATES = backfillCreates(
  (seconds) => `to_char(date_trunc('second', now() AT TIME ZONE 'UTC') + interval '${seconds} seconds', 'YYYY-MM-DD"T"HH24:MI:SS')`,
  'substr(created_at, 18, 2)::integer',
);

/**
 * A principal's creates after `since` (the second a minute ago, as the table keeps it), as the
 * columns `created` and `oldest` (the oldest second among them) of an aggregate over the
 * principal's at most 60 slots, and its FROM clause: this table's part of a quota check's read
 * (principal-standing.ts), the statement the others' columns join.
 */
export const RECENT_CREATES_COLUMNS = 'COALESCE(sum(n), 0) AS created, min(second) AS oldest';
export const recentCreatesFrom = (creator: string, since: string) => `FROM principal_creates WHERE creator_uid = ${creator} AND second > ${since}`;

/** The last second minuteAgoSecond answered for: every create of one second asks the same, and formatting a date costs a quarter of the read. */
let lastMinuteAgo = { second: Number.NaN, text: '' };

/** The second a minute before `now`, as the table keeps seconds: the slots after it are the window. */
export function minuteAgoSecond(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== lastMinuteAgo.second) lastMinuteAgo = { second, text: new Date((second - 60) * 1000).toISOString().slice(0, 19) };
  return lastMinuteAgo.text;
}

export function toRecentCreates(row: { created: number | string | null; oldest: string | null } | undefined): RecentCreates {
  return { count: Number(row?.created ?? 0), oldestSecond: row?.oldest ?? undefined };
}
