import type { SqlDialect } from '../sql-dialect.js';
import { spendColumns, toPrincipalSpend, type PrincipalSpend } from '../spend/principal-spend-table.js';
import { heldRunsColumns, toHeldRuns, type HeldRuns } from './principal-run-counts.js';
import { recentCreatesColumns, toRecentCreates, type RecentCreates } from './principal-creates.js';

/** Which of a principal's counters a quota check reads: only those its rule sets a limit on. */
export interface StandingWanted {
  /** Its runs QUEUED and INPROGRESS (runs_queued, runs_in_flight). */
  held: boolean;
  /** Its creates after this second (`2026-11-29T10:00:00`, a minute ago: creates_per_minute). */
  createsSince?: string | undefined;
  /** Its spend on this UTC day (`2026-11-29`: spend_per_day_usd). */
  spendDay?: string | undefined;
  /** The day's tokens too, beside its cost (what the quota page shows; no quota holds them). */
  spendTokens?: boolean | undefined;
}

/** Where a principal stands on the counters asked for; one not asked for reads as nothing (0). */
export interface PrincipalStanding {
  held: HeldRuns;
  creates: RecentCreates;
  spend: PrincipalSpend;
}

/** A principal's limits a create is held to (the configuration file's `quotas:` rule); an absent one is no limit. */
export interface PrincipalLimits {
  queued?: number | undefined;
  inFlight?: number | undefined;
  createsPerMinute?: number | undefined;
  spendPerDayUsd?: number | undefined;
}

/** A create held to its principal's quota: the limits, and the counters they need read (the window's start, the day). */
export interface QuotaHold {
  limits: PrincipalLimits;
  wanted: StandingWanted;
}

/** Which quota a principal standing so is at (one more run would pass it), in the order a refusal names them: none, undefined. */
export function quotaReached(limits: PrincipalLimits, standing: PrincipalStanding): 'spend' | 'queued' | 'in_flight' | 'creates' | undefined {
  if (limits.spendPerDayUsd !== undefined && standing.spend.costUsd >= limits.spendPerDayUsd) return 'spend';
  if (limits.queued !== undefined && standing.held.queued >= limits.queued) return 'queued';
  if (limits.inFlight !== undefined && standing.held.inProgress >= limits.inFlight) return 'in_flight';
  if (limits.createsPerMinute !== undefined && standing.creates.count >= limits.createsPerMinute) return 'creates';
  return undefined;
}

/** The one statement of a combination of counters, and the values it binds for a principal. */
export interface StandingStatement {
  /** Which combination (a name for the prepared statement): `h`, `c`, `s`, `t` for the parts read. */
  key: string;
  sql: string;
  values(creatorUid: string, wanted: StandingWanted): unknown[];
}

/**
 * What a quota check reads, as ONE statement on either database: the creates of the last
 * minute, the held runs and the day's spend, each as lookups by key (scalar subqueries, so
 * one row even with none); a part not wanted is a constant and costs nothing. One
 * statement instead of a read per counter: one trip to PostgreSQL, one step of SQLite's (and
 * on SQLite cheaper than joining three subqueries, which it would materialize). Built once
 * per combination and dialect (a check runs at every create).
 */
export function standingStatement(wanted: StandingWanted, dialect: SqlDialect): StandingStatement {
  const spend = wanted.spendDay !== undefined;
  const mask = (wanted.held ? 1 : 0) | (wanted.createsSince !== undefined ? 2 : 0) | (spend ? 4 : 0) | (spend && wanted.spendTokens ? 8 : 0);
  const built = BUILT[dialect.name];
  return (built[mask] ??= buildStatement(mask, dialect));
}

const BUILT: Record<SqlDialect['name'], (StandingStatement | undefined)[]> = { sqlite: [], postgres: [] };

type Bound = 'creator' | 'since' | 'day';

function buildStatement(mask: number, dialect: SqlDialect): StandingStatement {
  // Placeholders numbered in the order the text takes them, which is the order of the values bound.
  const bound: Bound[] = [];
  const param = (name: Bound) => () => dialect.placeholder(bound.push(name));
  const creates = mask & 2 ? recentCreatesColumns(param('creator'), param('since')) : '0 AS created, NULL AS oldest';
  const held = mask & 1 ? heldRunsColumns(param('creator')) : '0 AS queued, 0 AS in_progress';
  const spend = mask & 4 ? spendColumns(param('creator'), param('day'), (mask & 8) !== 0) : '0 AS cost_nano_usd, 0 AS tokens';
  const key = `${mask & 1 ? 'h' : ''}${mask & 2 ? 'c' : ''}${mask & 4 ? 's' : ''}${mask & 8 ? 't' : ''}` || 'none';
  return {
    key,
    sql: `SELECT ${creates}, ${held}, ${spend}`,
    values: (creator, wanted) => bound.map((name) => (name === 'creator' ? creator : name === 'since' ? wanted.createsSince : wanted.spendDay)),
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
