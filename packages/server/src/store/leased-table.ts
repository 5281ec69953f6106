/**
 * A table whose rows are leased: claimed by one owner at a time (a server, later a worker),
 * for a while, renewed while the work goes on, let go when it ends, taken over once the
 * lease runs out. The SQL is written with `?` placeholders for both databases
 * (PostgreSQL's statements number them); `Leases` (leases.ts) builds every statement from it.
 */
export interface LeasedTable {
  name: string;
  /** The table's alias in every statement: `due`, `held` and `columns` may name it. */
  alias: string;
  /**
   * The columns that name a leased row; its key as `Leases` gives it is their values joined
   * by KEY_SEPARATOR (the one value, for one column).
   */
  key: readonly string[];
  /** PostgreSQL's type of a single-column key, for a list of keys bound as one array. */
  keyType: 'text' | 'bigint';
  /** Where PostgreSQL keeps the owner and when the lease runs out (SQLite keeps its leases in memory). */
  owner: string;
  expiresAt: string;
  /**
   * Whose clock times the leases: the database's (`now()`, on every server the same), or the
   * caller's, in epoch milliseconds given with each call (a lease that a test can age).
   */
  clock: 'database' | 'caller';
  /** The rows whose leases count: one that leaves it (ends, fails, is delivered) is let go. */
  held: string;
  /** The rows a claim may take (`?` bound from the claim's `dueParams`), in the order given. */
  due: string;
  order: string;
  /**
   * What a claim sets besides the lease (`?` bound from its `setParams`), which takes the row
   * out of `due` (a run started). Without it a claimed row stays due, and its lease keeps
   * other claims from it; on SQLite such a claim is a read.
   */
  claimSets?: string;
  /** What a claim answers of each row. */
  columns: string;
}

/** Between the values of a key of several columns (a character no id or time holds; SQL's chr(31)). */
const KEY_SEPARATOR = '\u001f';

/** A row's key, as `Leases` names it. */
export const keyOf = (table: LeasedTable, row: Record<string, unknown>): string =>
  table.key.length === 1 ? String(row[table.key[0]!]) : table.key.map((c) => String(row[c])).join(KEY_SEPARATOR);

/**
 * The key in SQL: its columns, each of the table's alias, and the key as one text (the one
 * column, or the columns joined by KEY_SEPARATOR in the database's words, `joined`).
 */
export function keySql(table: LeasedTable, joined: (columns: readonly string[]) => string): { columns: string; text: string } {
  const columns = table.key.map((c) => `${table.alias}.${c}`);
  return { columns: columns.join(', '), text: columns.length === 1 ? columns[0]! : joined(columns) };
}
