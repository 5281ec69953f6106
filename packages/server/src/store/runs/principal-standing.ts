import type { SqlDialect } from '../sql-dialect.js';
import { SPEND_OF_PRINCIPAL_DAY, toPrincipalSpend, type PrincipalSpend } from '../spend/principal-spend-table.js';
import { HELD_RUNS_OF_PRINCIPAL, toHeldRuns, type HeldRuns } from './principal-run-counts.js';
import { RECENT_CREATES_OF_PRINCIPAL, toRecentCreates, type RecentCreates } from './principal-creates.js';

/** Which of a principal's counters a quota check reads: only those its rule sets a limit on. */
export interface StandingWanted {
  /** Its runs QUEUED and INPROGRESS (runs_queued, runs_in_flight). */
  held: boolean;
  /** Its creates after this second (`2026-11-29T10:00:00`, a minute ago: creates_per_minute). */
  createsSince?: string | undefined;
  /** Its spend on this UTC day (`2026-11-29`: spend_per_day_usd). */
  spendDay?: string | undefined;
}

/** Where a principal stands on the counters asked for; one not asked for reads as nothing (0). */
export interface PrincipalStanding {
  held: HeldRuns;
  creates: RecentCreates;
  spend: PrincipalSpend;
}

/** The one statement of a combination of counters, and the values it binds for a principal. */
export interface StandingStatement {
  /** Which combination (a name for the prepared statement): `h`, `c`, `s` for the parts read. */
  key: string;
  sql: string;
  values(creatorUid: string, wanted: StandingWanted): unknown[];
}

/**
 * What a quota check reads, as ONE statement on either database: each part is a single-row
 * select over its counter table (an aggregate, so a principal with no row still gives one row),
 * cross-joined; a part not wanted is a constant and costs nothing. One statement instead of a
 * read per counter: one trip to PostgreSQL, one step of SQLite's, and the counters read together.
 * Built once per combination and dialect (a check runs at every create).
 */
export function standingStatement(wanted: StandingWanted, dialect: SqlDialect): StandingStatement {
  const mask = (wanted.held ? 1 : 0) | (wanted.createsSince !== undefined ? 2 : 0) | (wanted.spendDay !== undefined ? 4 : 0);
  const built = BUILT[dialect.name];
  return (built[mask] ??= buildStatement(mask, dialect));
}

const BUILT: Record<SqlDialect['name'], (StandingStatement | undefined)[]> = { sqlite: [], postgres: [] };

function buildStatement(mask: number, dialect: SqlDialect): StandingStatement {
  let n = 0;
  const next = () => dialect.placeholder(++n);
  const parts: string[] = [];
  const binds: ((creator: string, wanted: StandingWanted) => unknown)[] = [];
  let key = '';
  if (mask & 1) {
    parts.push(`(${HELD_RUNS_OF_PRINCIPAL(next())}) h`);
    binds.push((creator) => creator);
    key += 'h';
  } else parts.push('(SELECT 0 AS queued, 0 AS in_progress) h');
  if (mask & 2) {
    parts.push(`(${RECENT_CREATES_OF_PRINCIPAL(next(), next())}) c`);
    binds.push((creator) => creator, (_, w) => w.createsSince);
    key += 'c';
  } else parts.push('(SELECT 0 AS created, NULL AS oldest) c');
  if (mask & 4) {
    parts.push(`(${SPEND_OF_PRINCIPAL_DAY(next(), next())}) s`);
    binds.push((creator) => creator, (_, w) => w.spendDay);
    key += 's';
  } else parts.push('(SELECT 0 AS cost_nano_usd, 0 AS tokens) s');
  return {
    key: key || 'none',
    sql: `SELECT h.queued, h.in_progress, c.created, c.oldest, s.cost_nano_usd, s.tokens FROM ${parts.join(' CROSS JOIN ')}`,
    values: (creator, w) => binds.map((bind) => bind(creator, w)),
  };
}

/** The statement's row (PostgreSQL answers bigint as strings; a sum over no row is null) as the principal's standing. */
export function toPrincipalStanding(row: StandingRow | undefined): PrincipalStanding {
  return {
    held: toHeldRuns(row),
    creates: toRecentCreates(row),
    spend: toPrincipalSpend(row),
  };
}

/** A row of standingStatement. */
export interface StandingRow {
  queued: number | string | null;
  in_progress: number | string | null;
  created: number | string | null;
  oldest: string | null;
  cost_nano_usd: number | string | null;
  tokens: number | string | null;
}
