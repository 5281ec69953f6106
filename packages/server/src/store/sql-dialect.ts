import type { ColumnType } from './table-description.js';

export type DialectName = 'sqlite' | 'postgres';

/** What differs between SQLite and PostgreSQL in the statements both stores build from one description. */
export interface SqlDialect {
  readonly name: DialectName;
  /** The n-th (1-based) parameter of a statement: `?` or `$n`. */
  placeholder(n: number): string;
  /** A boolean as the driver binds it: SQLite has no boolean type (0/1), PostgreSQL does. */
  boolean(value: boolean): unknown;
  /** A parameter cast where the database cannot infer its type (PostgreSQL), as is elsewhere. */
  cast(placeholder: string, type: 'text' | 'bigint'): string;
  /** A column that a filter must not pick an index by (SQLite's unary `+`); PostgreSQL plans without the hint. */
  unindexed(column: string): string;
  /** A term true for rows whose `column` is one of `count` values; the values are bound by `bindIn`. */
  inList(column: string, first: number, count: number): string;
  /** The parameter values `inList` binds for `values`. */
  bindIn(values: readonly string[]): unknown[];
  /** The text at member `key` of the JSON object kept as text in `column`; null when absent. */
  jsonText(column: string, key: string): string;
  /** The SQL for false. */
  readonly never: string;
  /** `column` matches a LIKE pattern (ESCAPE '\'), case-insensitive for ASCII letters only. */
  like(column: string, placeholder: string): string;
  /** The database's type of a column described as `type`. */
  readonly types: Readonly<Record<ColumnType, string>>;
  /** The definition (type and key) of a column numbering the rows, by how it numbers them (`Column.identity`). */
  readonly identity: Readonly<Record<'increasing' | 'rowid', string>>;
  /** The clause that makes a text column compare byte by byte (SQLite's text always does). */
  readonly byteOrder: string;
  /**
   * The new `updated_at` of a run written at the time bound to `placeholder`: that time, or
   * one millisecond past the stored one when it is not later. A run's version then changes
   * on every write however many share a millisecond, while the clock stays the wall clock.
   */
  nextStamp(placeholder: string): string;
}

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  placeholder: () => '?',
  boolean: (value) => (value ? 1 : 0),
  cast: (placeholder) => placeholder,
  unindexed: (column) => `+${column}`,
  inList: (column, _first, count) => `${column} IN (${Array.from({ length: count }, () => '?').join(', ')})`,
  bindIn: (values) => [...values],
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  never: '0',
  like: (column, placeholder) => `${column} LIKE ${placeholder} ESCAPE '\\'`,
  types: { text: 'TEXT', integer: 'INTEGER', int32: 'INTEGER', boolean: 'INTEGER', json: 'TEXT', bytes: 'BLOB', moment: 'TEXT' },
  identity: { increasing: 'INTEGER PRIMARY KEY AUTOINCREMENT', rowid: 'INTEGER PRIMARY KEY' },
  byteOrder: '',
  // SQLite's date arithmetic is in whole milliseconds, so the step is exact.
  nextStamp: (placeholder) => `max(${placeholder}, strftime('%Y-%m-%dT%H:%M:%fZ', updated_at, '+0.001 seconds'))`,
};

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  placeholder: (n) => `$${n}`,
  boolean: (value) => value,
  cast: (placeholder, type) => `${placeholder}::${type}`,
  unindexed: (column) => column,
  inList: (column, first) => `${column} = ANY($${first}::text[])`,
  bindIn: (values) => [[...values]],
  jsonText: (column, key) => `(${column}::json->>'${key}')`,
  never: 'false',
  // As SQLite's LIKE: ILIKE under the "C" collation folds ASCII letters only.
  like: (column, placeholder) => `${column} COLLATE "C" ILIKE ${placeholder} ESCAPE '\\'`,
  types: { text: 'text', integer: 'bigint', int32: 'integer', boolean: 'boolean', json: 'text', bytes: 'bytea', moment: 'timestamptz' },
  // No table of PostgreSQL's lets the database give a number again.
  identity: { increasing: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY', rowid: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY' },
  byteOrder: ' COLLATE "C"',
  nextStamp: (placeholder) =>
    `GREATEST(${placeholder}::text, to_char((updated_at::timestamptz + interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`,
};

/** A statement written with `?` placeholders, as PostgreSQL's `$1, $2, …`. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
