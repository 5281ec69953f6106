import type { ListCursor } from './list-cursor.js';
import type { RunRecord } from './run-record.js';
import type { RunListPage, RunListQuery } from './run-store.js';
import { RUN_COLUMNS, RUN_EXACT_FILTERS, RUNS_TABLE, SORT_COLUMN, toRunRecord, type RunRow } from './run-table.js';
import type { SqlDialect } from '../sql-dialect.js';
import { arrayRowReader } from '../table-description.js';

/** A list page's SELECT and the values it binds. */
export interface RunListStatement {
  sql: string;
  params: unknown[];
}

/**
 * The SELECT of one keyset page of runs, the same for both databases but for the dialect:
 * the filters, `q` as an escaped LIKE, the cursor, and one row beyond `limit` to tell whether
 * another page follows.
 */
export function runListStatement(query: RunListQuery, dialect: SqlDialect, select = `${RUN_COLUMNS}, config_name`): RunListStatement {
  const where: string[] = [];
  const params: unknown[] = [];
  const bind = (value: unknown): string => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  const column = SORT_COLUMN[query.sortBy];
  // Keyset pages walk the sort's index and stop after `limit` matches. A filter may use an
  // index only where that index is also in sort order; elsewhere SQLite is kept from picking
  // it (and then sorting every match).
  const byUpdated = query.sortBy === 'updated_at';
  const term = (name: string, indexed: boolean) => (indexed ? name : dialect.unindexed(name));
  if (query.states?.length) {
    const first = params.length + 1;
    params.push(...dialect.bindIn(query.states));
    where.push(dialect.inList(term('state', query.states.length === 1 && byUpdated), first, query.states.length));
  }
  for (const filter of RUN_EXACT_FILTERS) {
    const value = query[filter.field];
    if (value === undefined) continue;
    const indexed = 'indexed' in filter && filter.indexed(query.sortBy, query.states !== undefined);
    where.push(`${term(filter.column, indexed)} = ${bind(value)}`);
  }
  if (query.nothing) where.push(dialect.never);
  for (const [key, value] of Object.entries(query.metadata ?? {})) {
    where.push(`id IN (SELECT run_id FROM run_metadata WHERE key = ${bind(key)} AND value = ${bind(value)})`);
  }
  if (query.artifactType !== undefined) {
    where.push(`id IN (SELECT run_id FROM artifacts WHERE artifact_type = ${bind(query.artifactType)})`);
  }
  if (query.ancestorRunId !== undefined) {
    where.push(`id IN (WITH RECURSIVE tree(id) AS (SELECT ${dialect.cast(bind(query.ancestorRunId), 'text')} UNION
      SELECT r.id FROM runs r JOIN tree ON r.parent_run_id = tree.id) SELECT id FROM tree)`);
  }
  const byCreated = query.sortBy === 'created_at';
  if (query.createdAfter) where.push(`${term('created_at', byCreated)} > ${bind(query.createdAfter)}`);
  if (query.createdBefore) where.push(`${term('created_at', byCreated)} < ${bind(query.createdBefore)}`);
  if (query.updatedAfter) where.push(`${term('updated_at', byUpdated)} > ${bind(query.updatedAfter)}`);
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(`(${['title', 'prompt', 'skill_spec'].map((name) => dialect.like(name, bind(like))).join(' OR ')})`);
  }
  const desc = query.sortOrder === 'desc';
  if (query.after) {
    where.push(`(${column}, seq) ${desc ? '<' : '>'} (${bind(query.after.value)}, ${dialect.cast(bind(query.after.seq), 'bigint')})`);
  }
  const direction = desc ? 'DESC' : 'ASC';
  const sql = `SELECT ${select} FROM runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY ${column} ${direction}, seq ${direction} LIMIT ${bind(query.limit + 1)}`;
  return { sql, params };
}

/** Where each column of a list page's SELECT is in a row read as an array (better-sqlite3's raw mode). */
const LIST_POSITIONS: ReadonlyMap<string, number> = new Map(
  [...RUN_COLUMNS.split(', '), 'config_name'].map((name, position) => [name, position]),
);

/** How a driver's rows of `runListStatement` are read: as records, and one column's value. */
export interface ListRowReader<R> {
  record(row: R): RunRecord;
  column(row: R, name: string): unknown;
}

/** Rows as objects of column names (PostgreSQL, or better-sqlite3 by default). */
export const LIST_OBJECT_ROWS: ListRowReader<RunRow> = { record: toRunRecord, column: (row, name) => row[name] };

/** Rows as arrays in SELECT order (better-sqlite3's raw mode): no object of 33 names per row. */
export const LIST_ARRAY_ROWS: ListRowReader<readonly unknown[]> = {
  record: arrayRowReader(RUNS_TABLE),
  column: (row, name) => row[LIST_POSITIONS.get(name)!],
};

/**
 * How many runs match, counting no further than `limit + 1` (a quota asks whether it is
 * reached, not the whole count): the list's own WHERE, with no column read or decoded.
 */
export function runCountStatement(query: RunListQuery, dialect: SqlDialect): RunListStatement {
  const { sql, params } = runListStatement(query, dialect, '1 AS one');
  return { sql: `SELECT count(*) AS n FROM (${sql}) AS capped`, params };
}

/** The page the rows of `runListStatement` make: at most `limit` runs, and a cursor when more follow. */
export function runListPage<R>(rows: readonly R[], query: RunListQuery, reader: ListRowReader<R>): RunListPage {
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page[page.length - 1];
  const next: ListCursor | undefined =
    more && last
      ? {
          sortBy: query.sortBy,
          sortOrder: query.sortOrder,
          value: String(reader.column(last, SORT_COLUMN[query.sortBy])),
          seq: Number(reader.column(last, 'seq')),
        }
      : undefined;
  const runs: RunRecord[] = page.map((row) => reader.record(row));
  return { runs, ...(next ? { next } : {}) };
}
