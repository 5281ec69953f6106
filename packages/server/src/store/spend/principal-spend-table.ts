import type { RequestUsage } from '@agent-runs/core/contract';
import type { TableDescription } from '../table-description.js';

/** What a principal spent on one UTC day, summed over the usage updates of all its runs. */
export interface PrincipalSpend {
  /** Dollars, from the table's whole nanodollars. */
  costUsd: number;
  tokens: number;
}

/**
 * The `principal_spend` table: one row per principal (a run's `creator_uid`) and UTC day
 * (`2026-11-29`), added to as each usage update of a run is stored. Dollars are kept as whole
 * nanodollars (the precision usage is rounded to), so sums are exact on both databases and
 * two servers adding at once on PostgreSQL never lose a fraction.
 */
export const PRINCIPAL_SPEND_TABLE: TableDescription<never, never> = {
  name: 'principal_spend',
  withoutRowid: true,
  columns: [
    { name: 'creator_uid', type: 'text', notNull: true },
    { name: 'day', type: 'text', notNull: true, byteOrder: true },
    { name: 'cost_nano_usd', type: 'integer', notNull: true, default: '0' },
    { name: 'tokens', type: 'integer', notNull: true, default: '0' },
    { name: 'updated_at', type: 'text', notNull: true },
  ],
  keys: [{ kind: 'primary', on: 'creator_uid, day' }],
};

/** The UTC day of an RFC 3339 time, as the table keys it. */
export function utcDay(at: string): string {
  return new Date(at).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;
/** The last day utcDayOf answered for: a check at every create asks the same all day, and formatting a date is not free. */
let lastDay = { day: Number.NaN, text: '' };

/** The UTC day of `now`, as the table keys it. */
export function utcDayOf(now: Date): string {
  const day = Math.floor(now.getTime() / DAY_MS);
  if (day !== lastDay.day) lastDay = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}

/**
 * What one usage update adds to its principal's day: the run's usage now less the usage it
 * had stored before (a run's `request_usage` is its running total over all its executions).
 * Counting the difference from the stored total, rather than keeping a separate counter, makes
 * an update stored twice, a restart or a worker's repeated report add nothing. A total that
 * went down (a harness's end-of-turn figure below its per-message count) adds nothing, and
 * what it climbs back up by counts again: an overcount of at most that dip, never an undercount.
 */
export function spendDelta(before: RequestUsage | undefined, after: RequestUsage): { nanoUsd: number; tokens: number } {
  const nanos = (usage: RequestUsage | undefined) => Math.round((usage?.inference_cost_usd ?? 0) * 1e9);
  const tokens = (usage: RequestUsage | undefined) => usage?.total_tokens ?? 0;
  return { nanoUsd: Math.max(0, nanos(after) - nanos(before)), tokens: Math.max(0, tokens(after) - tokens(before)) };
}

/** Both databases' upsert of a day's spend (SQLite has had ON CONFLICT … DO UPDATE since 3.24): the amounts add, so servers sharing the row share one count. */
export function addSpendStatement(param: (n: number) => string): string {
  return `INSERT INTO principal_spend (creator_uid, day, cost_nano_usd, tokens, updated_at) VALUES (${param(1)}, ${param(2)}, ${param(3)}, ${param(4)}, ${param(5)})
ON CONFLICT (creator_uid, day) DO UPDATE SET cost_nano_usd = principal_spend.cost_nano_usd + excluded.cost_nano_usd,
  tokens = principal_spend.tokens + excluded.tokens, updated_at = excluded.updated_at`;
}

/** What `spendOf` reads: a principal's row of a day (none: nothing spent). */
export const SPEND_OF_PRINCIPAL_DAY = (creator: string, day: string) => `SELECT cost_nano_usd, tokens FROM principal_spend WHERE creator_uid = ${creator} AND day = ${day}`;

/**
 * The same as two columns (`cost_nano_usd`, `tokens`; null without its row), each a lookup of
 * one row by key (`creator()`, `day()` placeholders, asked for once per use): this table's part
 * of a quota check's read (principal-standing.ts). The tokens only when `tokens` (what the quota
 * page shows; a check holds the cost alone, and a lookup saved is one less at every create).
 */
export const spendColumns = (creator: () => string, day: () => string, tokens: boolean) =>
  `(SELECT cost_nano_usd FROM principal_spend WHERE creator_uid = ${creator()} AND day = ${day()}) AS cost_nano_usd, ` +
  (tokens ? `(SELECT tokens FROM principal_spend WHERE creator_uid = ${creator()} AND day = ${day()}) AS tokens` : '0 AS tokens');

/** That row or those columns as dollars and tokens (PostgreSQL answers bigint as strings); no row is nothing spent. */
export function toPrincipalSpend(row: { cost_nano_usd: string | number | null; tokens: string | number | null } | undefined): PrincipalSpend {
  return { costUsd: Number(row?.cost_nano_usd ?? 0) / 1e9, tokens: Number(row?.tokens ?? 0) };
}
