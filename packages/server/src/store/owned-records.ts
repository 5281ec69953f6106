import type { OwnedPage, OwnedPageQuery } from './owned-page.js';
import type { SqlDialect } from './sql-dialect.js';
import { insertStatement, rowReader, selectList, updateStatement, type Row, type TableDescription, type WriteStatement } from './table-description.js';

/**
 * Records principals create and keep by key (named agents, schedules): each store reads
 * and writes them the same way, from their table's description.
 */
export interface OwnedRecords<T> {
  insert(record: T): Promise<void>;
  get(key: string): Promise<T | undefined>;
  /** Oldest first. */
  list(): Promise<T[]>;
  /** A page, oldest first, of one creator's records (or all), filtered in the query. */
  page(query: OwnedPageQuery): Promise<OwnedPage<T>>;
  /** Writes a record's replaceable columns again; false when it no longer exists. */
  replace(record: T): Promise<boolean>;
  delete(key: string): Promise<boolean>;
}

/** Such a table: its description, its key column, what a replace writes, and who owns a row. */
export interface OwnedTable<T> {
  table: TableDescription<T, T>;
  key: string;
  replaced: readonly string[];
  /** The term true for the rows of the creator whose uid is bound at `placeholder`. */
  ownedBy(dialect: SqlDialect, placeholder: string): string;
}

/** The statements of an owned table in one dialect: both stores prepare these and no other. */
export interface OwnedStatements<T> {
  insert: WriteStatement<T>;
  replace: WriteStatement<T>;
  byKey: string;
  all: string;
  /** A page of every creator's rows: after a sequence number, at most a limit. */
  page: string;
  /** A page of one creator's: after a sequence number, at most a limit, the creator's uid. */
  pageMine: string;
  delete: string;
  read: (row: Row) => T;
}

export function ownedStatements<T>(owned: OwnedTable<T>, dialect: SqlDialect): OwnedStatements<T> {
  const { table, key } = owned;
  const columns = selectList(table);
  const p = (n: number) => dialect.placeholder(n);
  const page = (mine: string) => `SELECT seq, ${columns} FROM ${table.name} WHERE seq > ${p(1)} ${mine} ORDER BY seq LIMIT ${p(2)}`;
  return {
    insert: insertStatement(table, dialect),
    replace: updateStatement(table, dialect, owned.replaced, key),
    byKey: `SELECT ${columns} FROM ${table.name} WHERE ${key} = ${p(1)}`,
    all: `SELECT ${columns} FROM ${table.name} ORDER BY seq`,
    page: page(''),
    pageMine: page(`AND ${owned.ownedBy(dialect, p(3))}`),
    delete: `DELETE FROM ${table.name} WHERE ${key} = ${p(1)}`,
    read: rowReader(table),
  };
}
