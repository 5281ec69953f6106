import { postgresDialect, type DialectName, type SqlDialect } from './sql-dialect.js';

/**
 * How a column keeps its value in both databases: text as is, JSON as text, booleans as the
 * dialect binds them, integers as numbers (PostgreSQL answers a bigint as text), bytes as a Buffer.
 * `int32` is an integer PostgreSQL keeps in 4 bytes (SQLite has one integer type); `moment` a
 * time the database compares with its own clock (PostgreSQL's `timestamptz`, for its leases).
 */
export type ColumnType = 'text' | 'integer' | 'int32' | 'boolean' | 'json' | 'bytes' | 'moment';

/** One column: its name and type, what a write stores in it, and which record field a read fills. */
export interface Column<In, Out> {
  name: string;
  type: ColumnType;
  /** The value a write stores (null or undefined for none); absent when the database assigns it. */
  write?: (record: In) => unknown;
  /** The record field a read fills; absent when reads leave the column out. */
  read?: keyof Out & string;
  /** A null read leaves the field out of the record instead of setting it to null. */
  optional?: boolean;
  /**
   * For a column added after the tables the migrations create: its place (1, 2, …) in the
   * one sequence of added columns, from which both databases' migrations add it (added-columns.ts).
   */
  added?: number;
  /**
   * The row's number, given by the database in insertion order, its primary key: `increasing`
   * never gives a number twice, `rowid` may give the last one again once its row is deleted.
   */
  identity?: 'increasing' | 'rowid';
  /** The row's key on its own (a text key, say); a key of several columns is the table's `keys`. */
  primaryKey?: boolean;
  notNull?: boolean;
  unique?: boolean;
  /** Its default, an SQL literal both databases read alike. */
  default?: string;
  /**
   * Sorted or compared by range: PostgreSQL compares it byte by byte (COLLATE "C") as SQLite
   * does, so sorts and cursors agree whatever the database's locale.
   */
  byteOrder?: boolean;
  /** In one database's table only. */
  only?: DialectName;
}

/** An index of a table; `where` makes it partial, in each database's words where they differ. */
export interface IndexDescription {
  name: string;
  /** The indexed columns, as in the SQL: `updated_at, seq`. */
  on: string;
  unique?: boolean;
  where?: string | Readonly<Record<DialectName, string>>;
  only?: DialectName;
}

/** A key of several columns, written after the columns: the primary key, or a unique pair. */
export interface KeyDescription {
  kind: 'primary' | 'unique';
  /** Its columns, as in the SQL: `run_id, id`. */
  on: string;
  only?: DialectName;
}

/** One table as both stores see it: `In` is what a write takes, `Out` what a read gives. */
export interface TableDescription<In, Out> {
  name: string;
  columns: readonly Column<In, Out>[];
  indexes?: readonly IndexDescription[];
  keys?: readonly KeyDescription[];
  /** SQLite keeps the rows in their primary key's order, without a rowid (a table keyed by text). */
  withoutRowid?: boolean;
  /** Kept in one database only. */
  only?: DialectName;
}

/** Whether a column, index or table is in `dialect`'s database. */
export function inDialect(described: { only?: DialectName | undefined }, dialect: SqlDialect): boolean {
  return described.only === undefined || described.only === dialect.name;
}

/** A row as either driver answers it. */
export type Row = Record<string, unknown>;

/** A prepared write: its SQL and the values it binds for a record, in placeholder order. */
export interface WriteStatement<In> {
  sql: string;
  values(record: In): unknown[];
}

/** The expression that encodes `value` (an expression) for the column's type, in a compiled writer. */
function encodeExpression(type: ColumnType, value: string): string {
  switch (type) {
    case 'json':
      return `((v = ${value}) === null || v === undefined ? null : JSON.stringify(v))`;
    case 'boolean':
      return `((v = ${value}) === null || v === undefined ? null : dialect.boolean(v))`;
    default:
      return `(${value} ?? null)`;
  }
}

/** The expression that decodes `v` (known not null) for the column's type, in a compiled reader. */
function decodeExpression(type: ColumnType): string {
  switch (type) {
    case 'json':
      return "(v === '' ? null : JSON.parse(v))";
    case 'boolean':
      return '(v === true || v === 1)';
    case 'integer':
    case 'int32':
      return 'Number(v)';
    default:
      return 'v';
  }
}

function column<In, Out>(table: TableDescription<In, Out>, name: string): Column<In, Out> {
  const found = table.columns.find((c) => c.name === name);
  if (!found?.write) throw new Error(`${table.name}.${name} is not a column a write stores.`);
  return found;
}

/**
 * The values of `columns` for a record, encoded for the dialect, in the order given. Compiled
 * once into one function, so a write costs what a hand-written array of its values would.
 */
function valuesOf<In, Out>(columns: readonly Column<In, Out>[], dialect: SqlDialect): (record: In) => unknown[] {
  const writes = columns.map((c) => c.write!);
  const items = columns.map((c, i) => encodeExpression(c.type, `writes[${i}](record)`));
  return new Function('writes', 'dialect', `return (record) => { let v; return [${items.join(', ')}]; };`)(writes, dialect) as (
    record: In,
  ) => unknown[];
}

/** `INSERT INTO table (every written column) VALUES (…)`; `suffix` adds a conflict clause or RETURNING. */
export function insertStatement<In, Out>(table: TableDescription<In, Out>, dialect: SqlDialect, suffix = ''): WriteStatement<In> {
  const columns = table.columns.filter((c) => c.write && inDialect(c, dialect));
  const names = columns.map((c) => c.name).join(', ');
  const placeholders = columns.map((_, i) => dialect.placeholder(i + 1)).join(', ');
  return { sql: `INSERT INTO ${table.name} (${names}) VALUES (${placeholders})${suffix ? ` ${suffix}` : ''}`, values: valuesOf(columns, dialect) };
}

/** Rows as one array per column. */
export function byColumn(rows: readonly unknown[][], width: number): unknown[][] {
  return Array.from({ length: width }, (_, i) => rows.map((row) => row[i]));
}

/**
 * PostgreSQL's insert of many records in one statement, each column's values bound as one
 * array and made rows again by `unnest`: one round trip however many. `suffix` as `insertStatement`'s.
 */
export function insertManyStatement<In, Out>(table: TableDescription<In, Out>, suffix = ''): { sql: string; values(records: readonly In[]): unknown[][] } {
  const columns = table.columns.filter((c) => c.write && inDialect(c, postgresDialect));
  const arrays = columns.map((c, i) => `$${i + 1}::${postgresDialect.types[c.type]}[]`).join(', ');
  const values = valuesOf(columns, postgresDialect);
  return {
    sql: `INSERT INTO ${table.name} (${columns.map((c) => c.name).join(', ')}) SELECT * FROM unnest(${arrays})${suffix ? ` ${suffix}` : ''}`,
    values: (records) => byColumn(records.map(values), columns.length),
  };
}

/** `UPDATE table SET each of set = … WHERE key = …`, the values taken from one record. */
export function updateStatement<In, Out>(
  table: TableDescription<In, Out>,
  dialect: SqlDialect,
  set: readonly string[],
  key: string,
): WriteStatement<In> {
  const columns = [...set, key].map((name) => column(table, name));
  const sets = set.map((name, i) => `${name} = ${dialect.placeholder(i + 1)}`).join(', ');
  return {
    sql: `UPDATE ${table.name} SET ${sets} WHERE ${key} = ${dialect.placeholder(set.length + 1)}`,
    values: valuesOf(columns, dialect),
  };
}

/** The columns a read selects, for `SELECT … FROM table`. */
export function selectList<In, Out>(table: TableDescription<In, Out>): string {
  return table.columns
    .filter((c) => c.read)
    .map((c) => c.name)
    .join(', ');
}

/**
 * Turns a row selected with `selectList` into a record. Compiled once into one function that
 * reads each column by name, as a hand-written one would: reads of many rows stay cheap.
 */
export function rowReader<In, Out>(table: TableDescription<In, Out>): (row: Row) => Out {
  return compileReader<In, Out, Row>(table, (c) => JSON.stringify(c.name));
}

/**
 * `rowReader` for a row answered as an array in `selectList` order (better-sqlite3's raw
 * mode), which saves the driver building an object of column names for every row.
 */
export function arrayRowReader<In, Out>(table: TableDescription<In, Out>): (row: readonly unknown[]) => Out {
  return compileReader<In, Out, readonly unknown[]>(table, (_c, i) => String(i));
}

function compileReader<In, Out, R>(table: TableDescription<In, Out>, at: (c: Column<In, Out>, position: number) => string): (row: R) => Out {
  const columns = table.columns.filter((c) => c.read).map((c, i) => ({ c, key: at(c, i) }));
  const key = JSON.stringify;
  const decoded = (c: Column<In, Out>, k: string) => `((v = row[${k}]) === null || v === undefined ? null : ${decodeExpression(c.type)})`;
  const required = columns.filter(({ c }) => !c.optional).map(({ c, key: k }) => `${key(c.read!)}: ${decoded(c, k)}`);
  const optional = columns
    .filter(({ c }) => c.optional)
    .map(({ c, key: k }) => `v = row[${k}]; if (v !== null && v !== undefined && (v = ${decodeExpression(c.type)}) !== null) record[${key(c.read!)}] = v;`);
  const body = `let v; const record = { ${required.join(', ')} }; ${optional.join(' ')} return record;`;
  return new Function('row', body) as (row: R) => Out;
}
