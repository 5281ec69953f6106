import type { TableDescription } from '../table-description.js';

/** How many runs a principal holds now, QUEUED and INPROGRESS: what its runs_queued and runs_in_flight quotas hold. */
export interface HeldRuns {
  queued: number;
  inProgress: number;
}

/**
 * The `principal_run_counts` table: per principal (a run's `creator_uid`) and state, how many
 * of its runs are QUEUED and INPROGRESS. Moved by triggers on `runs` (insert, a change of
 * state, delete), so every path that moves a run, on any server of a shared database, moves
 * the count in the same statement, and a quota check reads one row instead of counting a
 * principal's thousands of queued runs.
 */
export const PRINCIPAL_RUN_COUNTS_TABLE: TableDescription<never, never> = {
  name: 'principal_run_counts',
  withoutRowid: true,
  columns: [
    { name: 'creator_uid', type: 'text', notNull: true },
    { name: 'state', type: 'text', notNull: true },
    { name: 'n', type: 'integer', notNull: true, default: '0' },
  ],
  keys: [{ kind: 'primary', on: 'creator_uid, state' }],
};

const HELD = "('QUEUED', 'INPROGRESS')";

/** The counts as the runs are now, for a database that had runs before the table (the migration's step). */
export const BACKFILL_RUN_COUNTS = `INSERT INTO principal_run_counts (creator_uid, state, n)
SELECT creator_uid, state, count(*) FROM runs WHERE state IN ${HELD} GROUP BY creator_uid, state;`;

/** SQLite: the principal's row for NEW's state made when missing. Not INSERT OR IGNORE: the outer statement's OR FAIL would override it. */
const sqliteEnsureRow = (where: string) =>
  `INSERT INTO principal_run_counts (creator_uid, state, n) SELECT NEW.creator_uid, NEW.state, 0
    WHERE ${where}NOT EXISTS (SELECT 1 FROM principal_run_counts WHERE creator_uid = NEW.creator_uid AND state = NEW.state);`;

/**
 * SQLite: the upsert spelt as an insert of a missing row, then an update. A row whose count
 * went to 0 stays (a principal's next run reuses it).
 */
export const SQLITE_RUN_COUNT_TRIGGERS = `
CREATE TRIGGER runs_count_on_insert AFTER INSERT ON runs WHEN NEW.state IN ${HELD}
BEGIN
  ${sqliteEnsureRow('')}
  UPDATE principal_run_counts SET n = n + 1 WHERE creator_uid = NEW.creator_uid AND state = NEW.state;
END;
CREATE TRIGGER runs_count_on_move AFTER UPDATE OF state ON runs WHEN OLD.state IS NOT NEW.state AND (OLD.state IN ${HELD} OR NEW.state IN ${HELD})
BEGIN
  UPDATE principal_run_counts SET n = n - 1 WHERE creator_uid = OLD.creator_uid AND state = OLD.state;
  ${sqliteEnsureRow(`NEW.state IN ${HELD} AND `)}
  UPDATE principal_run_counts SET n = n + 1 WHERE creator_uid = NEW.creator_uid AND state = NEW.state;
END;
CREATE TRIGGER runs_count_on_delete AFTER DELETE ON runs WHEN OLD.state IN ${HELD}
BEGIN
  UPDATE principal_run_counts SET n = n - 1 WHERE creator_uid = OLD.creator_uid AND state = OLD.state;
END;
`;

/** PostgreSQL: one function behind three triggers, each firing only when a held count moves. */
export const POSTGRES_RUN_COUNT_TRIGGERS = `
CREATE FUNCTION runs_count_by_principal() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    IF OLD.state IN ${HELD} THEN
      UPDATE principal_run_counts SET n = n - 1 WHERE creator_uid = OLD.creator_uid AND state = OLD.state;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF NEW.state IN ${HELD} THEN
      INSERT INTO principal_run_counts (creator_uid, state, n) VALUES (NEW.creator_uid, NEW.state, 1)
      ON CONFLICT (creator_uid, state) DO UPDATE SET n = principal_run_counts.n + 1;
    END IF;
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER runs_count_on_insert AFTER INSERT ON runs FOR EACH ROW WHEN (NEW.state IN ${HELD}) EXECUTE FUNCTION runs_count_by_principal();
CREATE TRIGGER runs_count_on_move AFTER UPDATE OF state ON runs FOR EACH ROW
  WHEN (OLD.state IS DISTINCT FROM NEW.state AND (OLD.state IN ${HELD} OR NEW.state IN ${HELD})) EXECUTE FUNCTION runs_count_by_principal();
CREATE TRIGGER runs_count_on_delete AFTER DELETE ON runs FOR EACH ROW WHEN (OLD.state IN ${HELD}) EXECUTE FUNCTION runs_count_by_principal();
`;

/**
 * A principal's held runs as two columns (`queued`, `in_progress`; null without its row), each
 * a lookup of one row by key, the same on both databases (`creator()` a placeholder of the
 * principal, asked for once per use): this table's part of a quota check's read (principal-standing.ts).
 */
export const heldRunsColumns = (creator: () => string) =>
  `(SELECT n FROM principal_run_counts WHERE creator_uid = ${creator()} AND state = 'QUEUED') AS queued, ` +
  `(SELECT n FROM principal_run_counts WHERE creator_uid = ${creator()} AND state = 'INPROGRESS') AS in_progress`;

/** Those columns as counts (PostgreSQL answers bigint as strings); no row is none. */
export function toHeldRuns(row: { queued: number | string | null; in_progress: number | string | null } | undefined): HeldRuns {
  return { queued: Math.max(0, Number(row?.queued ?? 0)), inProgress: Math.max(0, Number(row?.in_progress ?? 0)) };
}
