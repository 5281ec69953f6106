import { principalLock } from './principal-lock.js';

/**
 * Fair turns between principals. A run queued (created, or queued again by a follow-up) takes
 * a turn, and claims take the queued run of the lowest turn first (its age breaks ties), so
 * one principal's 500 queued runs do not hold every slot until they end:
 *
 * - the principal's next turn follows its last queued one (a burst of its runs takes turns
 *   1, 2, 3 … after whatever it already has in line); with a weight n (`fair_turns.weights`),
 *   up to n of its queued runs share a turn before the next (nextWeightedTurn below);
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
export const SQLITE_NEXT_TURN = `SELECT ${nextWeightedTurn('@host', '@creator', () => '', sqliteGreatest)} AS turn`;

/** Queued again from an ended state (a follow-up), not let go from INPROGRESS, which keeps its turn. */
const REQUEUED = "NEW.state = 'QUEUED' AND OLD.state NOT IN ('QUEUED', 'INPROGRESS')";

/** SQLite, as a run is queued again: a trigger (rare next to creates), the row being in the table already (as shipped, before weights). */
export const SQLITE_RUN_TURNS = `
CREATE TRIGGER runs_turn_on_requeue AFTER UPDATE OF state ON runs WHEN ${REQUEUED}
BEGIN UPDATE runs SET turn = ${nextTurn('NEW.worker_host', 'NEW.creator_uid', ' AND q.id <> NEW.id', sqliteGreatest)} WHERE id = NEW.id; END;
`;

/** PostgreSQL: set on the row before it is written, created or queued again (a create stays one statement); as shipped, before weights. */
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

/**
 * Weighted turns (`fair_turns.weights` in the configuration file, written by the server at
 * start into `principal_turn_weights`, principal-turn-weights.ts): a principal of weight n
 * puts up to n of its queued runs in one turn before its next turn, so it is started n times
 * for another's once. Weight 1 (every principal not listed) is the turn as before: the last
 * queued turn + 1. Turns stay whole numbers, so the runs already queued keep theirs.
 */
function nextWeightedTurn(host: string, creator: string, other: (alias: string) => string, greatest: (a: string, b: string) => string): string {
  const serving = `COALESCE(
      (SELECT max(q.turn) FROM runs q WHERE q.state = 'INPROGRESS' AND q.worker_host = ${host}),
      (SELECT min(q.turn) FROM runs q WHERE q.state = 'QUEUED' AND q.worker_host = ${host}${other('q')}),
      0)`;
  const weight = `COALESCE((SELECT w.weight FROM principal_turn_weights w WHERE w.creator_uid = ${creator}), 1)`;
  // The principal's last queued turn, and how many of its queued runs share it: full (its weight) moves on to the next turn.
  const sharing = `(SELECT count(*) FROM runs c WHERE c.state = 'QUEUED' AND c.worker_host = ${host} AND c.creator_uid = ${creator} AND c.turn = l.turn${other('c')})`;
  const own = `(SELECT l.turn + CASE WHEN ${sharing} >= ${weight} THEN 1 ELSE 0 END
      FROM (SELECT max(q.turn) AS turn FROM runs q WHERE q.state = 'QUEUED' AND q.worker_host = ${host} AND q.creator_uid = ${creator}${other('q')}) l)`;
  return greatest(serving, own);
}

/** SQLite: the requeue trigger again, now weighted (the insert reads SQLITE_NEXT_TURN). */
export const SQLITE_WEIGHTED_RUN_TURNS = `
DROP TRIGGER runs_turn_on_requeue;
CREATE TRIGGER runs_turn_on_requeue AFTER UPDATE OF state ON runs WHEN ${REQUEUED}
BEGIN UPDATE runs SET turn = ${nextWeightedTurn('NEW.worker_host', 'NEW.creator_uid', (alias) => ` AND ${alias}.id <> NEW.id`, sqliteGreatest)} WHERE id = NEW.id; END;
`;

/**
 * PostgreSQL: the same triggers, their function now weighted; a create first takes its
 * principal's lock (principal-lock.ts), so that the principal's creates racing on several
 * connections take turns 1, 2, 3 … as one write's do on SQLite, instead of reading the same
 * line and sharing a turn (a burst of them would then all go before another principal's run).
 * Its statements after the lock read a snapshot of their own, which holds the creates that
 * held it before. A run queued again takes no lock: it holds its own row, which a child's
 * create under its parent's limit may wait on while holding the lock.
 */
export const POSTGRES_LOCKED_RUN_TURNS = `
CREATE OR REPLACE FUNCTION runs_take_turn() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ${principalLock('NEW.creator_uid')};
  END IF;
  NEW.turn := ${nextWeightedTurn('NEW.worker_host', 'NEW.creator_uid', (alias) => ` AND ${alias}.id <> NEW.id`, (a, b) => `GREATEST(${a}, ${b})`)};
  RETURN NEW;
END
$fn$;
`;

/** PostgreSQL: the same triggers, their function now weighted (as shipped, before the lock). */
export const POSTGRES_WEIGHTED_RUN_TURNS = `
CREATE OR REPLACE FUNCTION runs_take_turn() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.turn := ${nextWeightedTurn('NEW.worker_host', 'NEW.creator_uid', (alias) => ` AND ${alias}.id <> NEW.id`, (a, b) => `GREATEST(${a}, ${b})`)};
  RETURN NEW;
END
$fn$;
`;
