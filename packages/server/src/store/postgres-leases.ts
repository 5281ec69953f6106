import type pg from 'pg';
import { keyOf, keySql, type LeasedTable } from './leased-table.js';
import type { ExpiredLease, LeaseClaim, Leases } from './leases.js';
import { inTransaction } from './postgres-transaction.js';
import { numbered } from './sql-dialect.js';
import type { Row } from './table-description.js';

/** The pool, or a connection in a transaction the caller opened. */
type Queryable = pg.Pool | pg.PoolClient;

/**
 * Leases kept in the rows (`owner`, `expiresAt`). A claim locks the due rows it reads with
 * SKIP LOCKED: a row another server is claiming right now is passed over, not waited for,
 * so each claimer takes other rows and none blocks on another. Without a choice a claim is
 * one statement; with one, a read and a write in one transaction.
 */
export class PostgresLeases<R> implements Leases<R, pg.PoolClient> {
  /** The key's columns, each of the table's alias. */
  private readonly keyColumns: string;
  /** The key as one text (`Leases`' keys), and a term true for the rows of a list of keys bound as one array. */
  private readonly key: string;
  private readonly inKeys: string;

  constructor(
    private readonly pool: pg.Pool,
    private readonly table: LeasedTable,
    private readonly read: (row: Row) => R,
  ) {
    ({ columns: this.keyColumns, text: this.key } = keySql(table, (columns) => `concat_ws(chr(31), ${columns.join(', ')})`));
    this.inKeys = `${this.key} = ANY(?::${table.key.length === 1 ? table.keyType : 'text'}[])`;
  }

  /** The new expiry, and its values. */
  private until(leaseMs: number, now: number | undefined): [string, unknown[]] {
    return this.table.clock === 'database' ? [`now() + ?::double precision * interval '1 millisecond'`, [leaseMs]] : ['?', [now! + leaseMs]];
  }

  /** Rows without a lease or whose lease ran out, and its values. */
  private unleased(now: number | undefined): [string, unknown[]] {
    const expiresAt = `${this.table.alias}.${this.table.expiresAt}`;
    return this.table.clock === 'database' ? [`(${expiresAt} IS NULL OR ${expiresAt} < now())`, []] : [`(${expiresAt} IS NULL OR ${expiresAt} < ?)`, [now]];
  }

  claim(request: LeaseClaim<R>): Promise<R[]> {
    return request.choose ? inTransaction(this.pool, (client) => this.claimIn(client, request)) : this.claimIn(this.pool, request);
  }

  /** `claim` on `client` (a claim with a choice in a transaction the caller opened). */
  async claimIn(client: Queryable, request: LeaseClaim<R>): Promise<R[]> {
    const { name, alias, owner, expiresAt, due, order, claimSets, columns } = this.table;
    const [unleased, unleasedValues] = this.unleased(request.now);
    const [until, untilValues] = this.until(request.leaseMs, request.now);
    const sets = `${owner} = ?, ${expiresAt} = ${until}${claimSets ? `, ${claimSets}` : ''}`;
    const setValues = [request.owner, ...untilValues, ...(request.setParams ?? [])];
    const dueValues = [...(request.dueParams ?? []), ...unleasedValues];
    const select = (what: string, limit: number, lock: string) =>
      `SELECT ${what} FROM ${name} ${alias} WHERE ${due} AND ${unleased} ORDER BY ${order} LIMIT ${limit} FOR UPDATE${lock} SKIP LOCKED`;
    if (!request.choose) {
      const { rows } = await client.query<Row>(
        numbered(`UPDATE ${name} ${alias} SET ${sets} WHERE (${this.keyColumns}) IN (${select(this.keyColumns, request.limit, '')}) RETURNING ${columns}`),
        [...setValues, ...dueValues],
      );
      return rows.map(this.read);
    }
    const { rows } = await client.query<Row>(numbered(select(columns, request.scan ?? request.limit, ` OF ${alias}`)), dueValues);
    const read = rows.map(this.read);
    const chosen = new Set(request.choose(read).slice(0, request.limit));
    const keys = rows.filter((_, i) => chosen.has(read[i]!)).map((row) => keyOf(this.table, row));
    if (keys.length) await client.query(numbered(`UPDATE ${name} ${alias} SET ${sets} WHERE ${this.inKeys}`), [...setValues, keys]);
    return read.filter((r) => chosen.has(r));
  }

  async renew(owner: string, leaseMs: number, options: { keys?: readonly string[]; now?: number } = {}): Promise<string[]> {
    const { name, alias, owner: ownerColumn, expiresAt, held } = this.table;
    const [until, untilValues] = this.until(leaseMs, options.now);
    const only = options.keys ? ` AND ${this.inKeys}` : '';
    const { rows } = await this.pool.query<Row>(
      numbered(`UPDATE ${name} ${alias} SET ${expiresAt} = ${until} WHERE ${alias}.${ownerColumn} = ? AND ${held}${only} RETURNING ${this.key} AS key`),
      [...untilValues, owner, ...(options.keys ? [options.keys] : [])],
    );
    return rows.map((row) => String(row['key']));
  }

  async adopt(owner: string, keys: readonly string[], leaseMs: number, now?: number): Promise<void> {
    if (keys.length === 0) return;
    const { name, alias, owner: ownerColumn, expiresAt, held } = this.table;
    const [until, untilValues] = this.until(leaseMs, now);
    await this.pool.query(numbered(`UPDATE ${name} ${alias} SET ${ownerColumn} = ?, ${expiresAt} = ${until} WHERE ${held} AND ${this.inKeys}`), [owner, ...untilValues, keys]);
  }

  async release(owner?: string, keys?: readonly string[]): Promise<void> {
    const { name, alias, owner: ownerColumn, expiresAt } = this.table;
    const whose = owner === undefined ? `${alias}.${ownerColumn} IS NOT NULL` : `${alias}.${ownerColumn} = ?`;
    const only = keys ? ` AND ${this.inKeys}` : '';
    await this.pool.query(numbered(`UPDATE ${name} ${alias} SET ${ownerColumn} = NULL, ${expiresAt} = NULL WHERE ${whose}${only}`), [
      ...(owner === undefined ? [] : [owner]),
      ...(keys ? [keys] : []),
    ]);
  }

  async holder(key: string, now?: number): Promise<string | undefined> {
    const { name, alias, owner, expiresAt, held, clock } = this.table;
    const live = clock === 'database' ? `${alias}.${expiresAt} >= now()` : `${alias}.${expiresAt} >= ?`;
    const { rows } = await this.pool.query<{ owner: string | null }>(
      numbered(`SELECT ${alias}.${owner} AS owner FROM ${name} ${alias} WHERE ${held} AND ${this.key} = ? AND ${live}`),
      clock === 'database' ? [key] : [key, now],
    );
    return rows[0]?.owner ?? undefined;
  }

  async takeOverExpired<T>(
    work: (expired: ExpiredLease[], tx: pg.PoolClient) => Promise<T>,
    now?: number,
    only: (owner: string | null) => boolean = () => true,
  ): Promise<T> {
    const { name, alias, owner, expiresAt, held, clock } = this.table;
    const ranOut = clock === 'database' ? `${alias}.${expiresAt} < now()` : `${alias}.${expiresAt} < ?`;
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ key: unknown; owner: string | null }>(
        numbered(`SELECT ${this.key} AS key, ${alias}.${owner} AS owner FROM ${name} ${alias} WHERE ${held} AND ${ranOut} FOR UPDATE SKIP LOCKED`),
        clock === 'database' ? [] : [now],
      );
      return work(
        rows.filter((row) => only(row.owner)).map((row) => ({ key: String(row.key), owner: row.owner })),
        client,
      );
    });
  }
}
