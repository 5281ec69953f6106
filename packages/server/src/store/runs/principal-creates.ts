import type { TableDescription } from '../table-description.js';
import { principalLock } from './principal-lock.js';

/** A principal's creates of the last minute, and the second (`2026-11-29T10:00:00`) of the oldest of them. */
export interface RecentCreates {
  count: number;
  oldestSecond: string | undefined;
}

/**
 * The `principal_creates` table: per principal (a run's `creator_uid`), its creates per second
 * of the last minute, on a ring of 60 slots (the second of the minute), each holding the
 * second it counts, how many runs were created in it (`n`), and how many the principal has
 * created up to the end of it (`total`, a running count over its seconds in order). An insert
 * trigger on `runs` adds to its slot, starting it again when the slot held an older second;
 * so the table never grows past 60 rows a principal and needs no pruning. A creates_per_minute
 * check seeks two rows instead of summing up to 60: the newest slot's total less the total
 * before the oldest slot of the window (its total less its n). Counted to the second: a
 * create is in the window by the second it was made in.
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
    { name: 'total', type: 'integer', notNull: true, default: '0' },
  ],
  keys: [{ kind: 'primary', on: 'creator_uid, slot' }],
  // The window's two seeks: a principal's newest second, and its oldest after a minute ago.
  indexes: [{ name: 'principal_creates_by_second', on: 'creator_uid, second' }],
};

/** What the table's first step made; the step that keeps running totals adds these. */
export const PRINCIPAL_CREATES_RUNNING_TOTAL = ['total', 'principal_creates_by_second'] as const;

const SECOND = 'substr(NEW.created_at, 1, 19)';
const SLOT = (cast: (sql: string) => string) => cast('substr(NEW.created_at, 18, 2)');
/** The slot's count after one more create: one more in the same second, a new second starts at 1, a straggler of an older second (clock skew between servers) is left out. */
const ADD_ONE = (slot: string) => `n = CASE WHEN ${slot}.second = ${SECOND} THEN ${slot}.n + 1 WHEN ${slot}.second < ${SECOND} THEN 1 ELSE ${slot}.n END`;

/** SQLite, as first shipped (before running totals): the slot made when missing (not INSERT OR IGNORE, which the outer statement's OR FAIL overrides), then moved. */
export const SQLITE_CREATE_COUNT_TRIGGER = `
CREATE TRIGGER runs_count_creates AFTER INSERT ON runs
BEGIN
  INSERT INTO principal_creates (creator_uid, slot, second, n) SELECT NEW.creator_uid, ${SLOT((s) => `CAST(${s} AS INTEGER)`)}, ${SECOND}, 0
    WHERE NOT EXISTS (SELECT 1 FROM principal_creates WHERE creator_uid = NEW.creator_uid AND slot = ${SLOT((s) => `CAST(${s} AS INTEGER)`)});
  UPDATE principal_creates SET ${ADD_ONE('principal_creates')}, second = max(second, ${SECOND})
    WHERE creator_uid = NEW.creator_uid AND slot = ${SLOT((s) => `CAST(${s} AS INTEGER)`)};
END;
`;

/** PostgreSQL, as first shipped (before running totals): one upsert per create, on the principal's slot of the second. */
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
 * The running totals of the rows there already (the step that adds them): each slot's total
 * is the principal's creates in its seconds up to that one.
 */
export const BACKFILL_CREATE_TOTALS = `UPDATE principal_creates SET total = (SELECT sum(p.n) FROM principal_creates p
  WHERE p.creator_uid = principal_creates.creator_uid AND p.second <= principal_creates.second);`;

const SLOT_IS = (slot: string) => `creator_uid = NEW.creator_uid AND slot = ${slot}`;
/** The principal's total before NEW's second: the running total of its newest slot of an older second. */
const TOTAL_BEFORE = (alias: string) =>
  `COALESCE((SELECT ${alias}.total FROM principal_creates ${alias} WHERE ${alias}.creator_uid = NEW.creator_uid AND ${alias}.second < ${SECOND} ORDER BY ${alias}.second DESC LIMIT 1), 0)`;

/**
 * SQLite, with running totals. A create whose slot holds a newer second already (a straggler
 * of a clock behind by a minute) is left out. Otherwise the slots of later seconds (another
 * server's clock ahead; none as a rule) count it in their totals; the slot is made when
 * missing, as of no second (''), so the update below starts it; then it adds one to its second
 * or starts a new second at 1 on the total before it.
 */
export const SQLITE_RUNNING_CREATE_COUNT_TRIGGER = `
DROP TRIGGER runs_count_creates;
CREATE TRIGGER runs_count_creates AFTER INSERT ON runs
WHEN NOT EXISTS (SELECT 1 FROM principal_creates WHERE ${SLOT_IS(SLOT((s) => `CAST(${s} AS INTEGER)`))} AND second > ${SECOND})
BEGIN
  UPDATE principal_creates SET total = total + 1 WHERE creator_uid = NEW.creator_uid AND second > ${SECOND};
  INSERT INTO principal_creates (creator_uid, slot, second, n, total) SELECT NEW.creator_uid, ${SLOT((s) => `CAST(${s} AS INTEGER)`)}, '', 0, 0
    WHERE NOT EXISTS (SELECT 1 FROM principal_creates WHERE ${SLOT_IS(SLOT((s) => `CAST(${s} AS INTEGER)`))});
  UPDATE principal_creates SET
    total = CASE WHEN second = ${SECOND} THEN total + 1 ELSE ${TOTAL_BEFORE('p')} + 1 END,
    n = CASE WHEN second = ${SECOND} THEN n + 1 ELSE 1 END,
    second = ${SECOND}
    WHERE ${SLOT_IS(SLOT((s) => `CAST(${s} AS INTEGER)`))};
END;
`;

/**
 * PostgreSQL, with running totals: the same moves as SQLite's, under the principal's lock (its
 * creates' turn takes it already; taken again here, as a run made in another state takes no
 * turn), so the total before a new second is read with no other create of the principal between.
 */
export const POSTGRES_RUNNING_CREATE_COUNT_TRIGGER = `
CREATE OR REPLACE FUNCTION runs_count_creates() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  held text;
BEGIN
  PERFORM ${principalLock('NEW.creator_uid')};
  SELECT second INTO held FROM principal_creates WHERE ${SLOT_IS(SLOT((s) => `${s}::integer`))};
  IF held > ${SECOND} THEN
    RETURN NULL;
  END IF;
  UPDATE principal_creates SET total = total + 1 WHERE creator_uid = NEW.creator_uid AND second > ${SECOND};
  IF held = ${SECOND} THEN
    UPDATE principal_creates SET n = n + 1, total = total + 1 WHERE ${SLOT_IS(SLOT((s) => `${s}::integer`))};
  ELSE
    INSERT INTO principal_creates AS p (creator_uid, slot, second, n, total)
      VALUES (NEW.creator_uid, ${SLOT((s) => `${s}::integer`)}, ${SECOND}, 1, ${TOTAL_BEFORE('b')} + 1)
      ON CONFLICT (creator_uid, slot) DO UPDATE SET second = excluded.second, n = 1, total = excluded.total;
  END IF;
  RETURN NULL;
END
$fn$;
`;

/**
 * A principal's creates after `since` (the second a minute ago, as the table keeps it), as the
 * columns `created` and `oldest` (the oldest second among them): its newest slot's running
 * total less the total before its oldest slot of the window, each an index seek, none read
 * when it has no slot in the window. `param` gives the placeholder of the principal, then of
 * `since`, in the order the text takes them.
 */
export const recentCreatesColumns = (creator: () => string, since: () => string) => {
  const oldest = (what: string) => `(SELECT ${what} FROM principal_creates WHERE creator_uid = ${creator()} AND second > ${since()} ORDER BY second LIMIT 1)`;
  const newestTotal = `(SELECT total FROM principal_creates WHERE creator_uid = ${creator()} ORDER BY second DESC LIMIT 1)`;
  return `COALESCE(${newestTotal} - ${oldest('total - n')}, 0) AS created, ${oldest('second')} AS oldest`;
};

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
