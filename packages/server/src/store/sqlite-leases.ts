import type Database from 'better-sqlite3';
import { keyOf, keySql, type LeasedTable } from './leased-table.js';
import type { ExpiredLease, LeaseClaim, Leases } from './leases.js';
import { sqliteOrFail } from './sqlite-or-fail.js';
import type { Row } from './table-description.js';

/** A row leased: to whom, until when (epoch milliseconds). */
interface Lease {
  owner: string;
  expiresAt: number;
}

/**
 * Leases in memory. One server owns the file (its data directory is locked), so every
 * lease is this process's: a claim is a plain transaction, a read where the table's claim
 * sets nothing (not a write that rewrites each row it takes), and a restart drops them as a
 * fresh server must. The user lets go of a lease when its row stops being held (the
 * database does not say).
 */
export class SqliteLeases<R> implements Leases<R, Database.Database> {
  /** By key. */
  private readonly leases = new Map<string, Lease>();
  private readonly statements = new Map<string, Database.Statement>();
  /** The key's columns, each of the table's alias, and the key as one text (`Leases`' keys). */
  private readonly keyColumns: string;
  private readonly key: string;
  /** A claim's statements: its read of the due rows (leaving out those leased), and its write where it sets something. */
  private readonly sql: { read: string; readExcept: string; claim?: string; claimOne?: string; claimChosen?: string };

  constructor(
    private readonly db: Database.Database,
    private readonly table: LeasedTable,
    private readonly read: (row: Row) => R,
  ) {
    ({ columns: this.keyColumns, text: this.key } = keySql(table, (columns) => columns.join(' || char(31) || ')));
    const { name, alias, key, due, order, claimSets, columns } = table;
    const select = (what: string, except: string) => `SELECT ${what} FROM ${name} ${alias} WHERE ${due}${except} ORDER BY ${order} LIMIT ?`;
    this.sql = {
      read: select(columns, ''),
      readExcept: select(columns, ` AND ${this.key} NOT IN (SELECT value FROM json_each(?))`),
      ...(claimSets
        ? {
            claim: sqliteOrFail(`UPDATE ${name} AS ${alias} SET ${claimSets} WHERE (${key.join(', ')}) IN (${select(this.keyColumns, '')}) RETURNING ${columns}`),
            // One row (a run's claim) by `=` on a scalar subquery: the same row as `IN`, at a
            // quarter of the CPU (measured on the runs table with its triggers: ~150 µs against
            // ~600 µs); SQLite's `IN (subquery)` form of an UPDATE costs that much whatever its size.
            ...(key.length === 1 ? { claimOne: sqliteOrFail(`UPDATE ${name} AS ${alias} SET ${claimSets} WHERE ${key[0]} = (${select(this.keyColumns, '')}) RETURNING ${columns}`) } : {}),
            claimChosen: `UPDATE ${name} AS ${alias} SET ${claimSets} WHERE ${this.key} IN (SELECT value FROM json_each(?)) RETURNING ${columns}`,
          }
        : {}),
    };
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  private now(given: number | undefined): number {
    return this.table.clock === 'database' ? Date.now() : given!;
  }

  /** Keys as the table stores them, as one JSON array for `json_each`. */
  private keyList(keys: Iterable<string>): string {
    return JSON.stringify(this.table.key.length === 1 && this.table.keyType === 'bigint' ? [...keys].map(Number) : [...keys]);
  }

  async claim(request: LeaseClaim<R>): Promise<R[]> {
    return this.claimNow(request);
  }

  /** `claim`, synchronously: inside a transaction of the caller's. */
  claimNow(request: LeaseClaim<R>): R[] {
    const now = this.now(request.now);
    // Only where a claim leaves leased rows due do leases that ran out stop counting here; where
    // it takes its rows out of `due` (runs started), they stay until taken over, so that a
    // worker's run whose lease ran out is failed (takeOverExpired), not forgotten as INPROGRESS.
    if (!this.table.claimSets) for (const [leased, lease] of this.leases) if (lease.expiresAt < now) this.leases.delete(leased);
    // A claim that sets something takes its rows out of `due`; one that sets nothing leaves
    // out the rows leased, only while some are: it then reads only the rows it takes.
    const except = !this.table.claimSets && this.leases.size > 0;
    const dueValues = [...(request.dueParams ?? []), ...(except ? [this.keyList(this.leases.keys())] : [])];
    const setValues = request.setParams ?? [];
    let claimed: Row[];
    if (!request.choose) {
      // all(), not get(): the commit after a write is then checked (a full disk is an error, not a claim).
      const claim = request.limit === 1 && this.sql.claimOne ? this.sql.claimOne : this.sql.claim;
      claimed = claim
        ? (this.statement(claim).all(...setValues, ...dueValues, request.limit) as Row[])
        : (this.statement(except ? this.sql.readExcept : this.sql.read).all(...dueValues, request.limit) as Row[]);
    } else {
      const rows = this.statement(except ? this.sql.readExcept : this.sql.read).all(...dueValues, request.scan ?? request.limit) as Row[];
      const read = rows.map(this.read);
      const chosen = new Set(request.choose(read).slice(0, request.limit));
      claimed = rows.filter((_, i) => chosen.has(read[i]!));
      if (this.sql.claimChosen && claimed.length) {
        const keys = this.keyList(claimed.map((row) => keyOf(this.table, row)));
        claimed = this.statement(this.sql.claimChosen).all(...setValues, keys) as Row[];
      }
    }
    for (const row of claimed) this.leases.set(keyOf(this.table, row), { owner: request.owner, expiresAt: now + request.leaseMs });
    return claimed.map(this.read);
  }

  /** Whether `owner` holds the lease of `key` (a write under it checks it first). */
  holds(owner: string, key: string): boolean {
    return this.leases.get(key)?.owner === owner;
  }

  async renew(owner: string, leaseMs: number, options: { keys?: readonly string[]; now?: number } = {}): Promise<string[]> {
    const now = this.now(options.now);
    const mine = [...this.leases].filter(([k, lease]) => lease.owner === owner && (!options.keys || options.keys.includes(k))).map(([k]) => k);
    const held = new Set(this.stillHeld(mine));
    for (const k of mine) {
      if (held.has(k)) this.leases.set(k, { owner, expiresAt: now + leaseMs });
      else this.leases.delete(k);
    }
    return [...held];
  }

  /** Of `keys`, those whose rows are still held. */
  private stillHeld(keys: readonly string[]): string[] {
    if (keys.length === 0) return [];
    const { name, alias, held } = this.table;
    const rows = this.statement(`SELECT ${this.key} AS key FROM ${name} ${alias} WHERE ${held} AND ${this.key} IN (SELECT value FROM json_each(?))`).all(
      this.keyList(keys),
    ) as Row[];
    return rows.map((row) => String(row['key']));
  }

  async adopt(owner: string, keys: readonly string[], leaseMs: number, now?: number): Promise<void> {
    const expiresAt = this.now(now) + leaseMs;
    for (const k of this.stillHeld(keys)) this.leases.set(k, { owner, expiresAt });
  }

  async holder(key: string, now?: number): Promise<string | undefined> {
    const lease = this.leases.get(key);
    return lease && lease.expiresAt >= this.now(now) ? lease.owner : undefined;
  }

  async release(owner?: string, keys?: readonly string[]): Promise<void> {
    this.releaseNow(owner, keys);
  }

  /** `release`, synchronously. */
  releaseNow(owner?: string, keys?: readonly string[]): void {
    if (keys && owner === undefined) for (const k of keys) this.leases.delete(k);
    else for (const [k, lease] of this.leases) if ((owner === undefined || lease.owner === owner) && (!keys || keys.includes(k))) this.leases.delete(k);
  }

  async takeOverExpired<T>(
    work: (expired: ExpiredLease[], tx: Database.Database) => Promise<T>,
    now?: number,
    only: (owner: string | null) => boolean = () => true,
  ): Promise<T> {
    const at = this.now(now);
    const ranOut = [...this.leases].filter(([, lease]) => lease.expiresAt < at && only(lease.owner));
    for (const [k] of ranOut) this.leases.delete(k);
    const held = new Set(this.stillHeld(ranOut.map(([k]) => k)));
    return work(
      ranOut.filter(([k]) => held.has(k)).map(([k, lease]) => ({ key: k, owner: lease.owner })),
      this.db,
    );
  }
}
