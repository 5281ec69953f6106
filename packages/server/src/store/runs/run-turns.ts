/**
 * Fair turns between principals. A run queued (created, or queued again by a follow-up) takes
 * a turn, and claims take the queued run of the lowest turn first (its age breaks ties), so
 * one principal's 500 queued runs do not hold every slot until they end:
 *
 * - the principal's next turn follows its last queued one (a burst of its runs takes turns
 *   1, 2, 3 … after whatever it already has in line);
 * - but never comes before the turn being served now (the highest turn of the host's runs in
 *   progress; with none in progress, the head of the line), so a principal with nothing in
 *   line goes next, right after the runs of that turn.
 *
 * Principal B, creating one run while A has 200 in line, is started at the next free slot;
 * C and D arriving after B take the same turn and go by age. Turns are counted per worker
 * id (each id's line is its own). The turn is worked out as the row is written, in the same
 * statement or transaction (on PostgreSQL by a trigger, on SQLite by the store's insert and a
 * trigger for follow-ups), so every path that queues a run, on any server of a shared
 * database, takes turns the same way; a run let go by its server or worker (back to QUEUED
 * from INPROGRESS) keeps its turn, and so its place.
 */

/**
 * The turn a run takes, in SQL both databases read alike but for GREATEST: `host` and
 * `creator` its worker_host and creator_uid, `other` what leaves the run itself out (in a
 * trigger, where it may be in the table already).
 */
function nextTurn(host: string, creator: string, other: string, greatest: (a: string, b: string) => string): string {
  const serving = `COALESCE(
      (SELECT max(q.turn) FROM runs q WHERE q.state = 'INPROGRESS' AND q.worker_host = ${host}),
      (SELECT min(q.turn) FROM runs q WHERE q.state = 'QUEUED' AND q.worker_host = ${host}${other}),
      0)`;
  const own = `(SELECT max(q.turn) FROM runs q WHERE q.state = 'QUEUED' AND q.worker_host = ${host} AND q.creator_uid = ${creator}${other}) + 1`;
  return greatest(serving, own);
}

/** SQLite's GREATEST: max() of a set ignores the principal's NULL, as GREATEST does. */
const sqliteGreatest = (a: string, b: string) => `(SELECT max(v) FROM (SELECT ${a} AS v UNION ALL SELECT ${b}))`;

/**
 * SQLite, as a run is created: the turn the store reads (`@host`, `@creator`) in the insert's
 * transaction and writes with the row, one write instead of a trigger's insert and update.
 */
export const SQLITE_NEXT_TURN = `SELECT ${nextTurn('@host', '@creator', '', sqliteGreatest)} AS turn`;

/** Queued again from an ended state (a follow-up), not let go from INPROGRESS, which keeps its turn. */
const REQUEUED = "NEW.state = 'QUEUED' AND OLD.state NOT IN ('QUEUED', 'INPROGRESS')";

/** SQLite, as a run is queued again: a trigger (rare next to creates), the row being in the table already. */
export const SQLITE_RUN_TURNS = `
CREATE TRIGGER runs_turn_on_requeue AFTER UPDATE OF state ON runs WHEN ${REQUEUED}
BEGIN UPDATE runs SET turn = ${nextTurn('NEW.worker_host', 'NEW.creator_uid', ' AND q.id <> NEW.id', sqliteGreatest)} WHERE id = NEW.id; END;
`;

/** PostgreSQL: set on the row before it is written, created or queued again (a create stays one statement). */
export const POSTGRES_RUN_TURNS = `
CREATE FUNCTION runs_take_turn() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.turn := ${nextTurn('NEW.worker_host', 'NEW.creator_uid', ' AND q.id <> NEW.id', (a, b) => `GREATEST(${a}, ${b})`)};
  RETURN NEW;
END
$fn$;
CREATE TRIGGER runs_turn_on_create BEFORE INSERT ON runs FOR EACH ROW WHEN (NEW.state = 'QUEUED') EXECUTE FUNCTION runs_take_turn();
CREATE TRIGGER runs_turn_on_requeue BEFORE UPDATE OF state ON runs FOR EACH ROW WHEN (${REQUEUED}) EXECUTE FUNCTION runs_take_turn();
`;
