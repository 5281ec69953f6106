/** A claim of due rows of a leased table (`LeasedTable`). */
export interface LeaseClaim<R> {
  owner: string;
  leaseMs: number;
  /** At most this many rows are leased. */
  limit: number;
  /** The time, in epoch milliseconds, for a table on the caller's clock; unused on the database's. */
  now?: number;
  /** Bound to the `?` of the table's `due`, in order. */
  dueParams?: readonly unknown[];
  /** Bound to the `?` of the table's `claimSets`, in order. */
  setParams?: readonly unknown[];
  /**
   * Which of the due rows (up to `scan`, in the table's order) to lease, at most `limit`;
   * without it, the first `limit`.
   */
  choose?: (due: R[]) => R[];
  scan?: number;
}

/** A lease that ran out on a row still held: its key and the owner that stopped renewing it. */
export interface ExpiredLease {
  key: string;
  owner: string | null;
}

/**
 * Leases on the rows of one table, implemented once per database: SQLite, alone on its
 * file, keeps them in memory (a claim is a plain transaction, often a read); PostgreSQL in
 * the rows, claimed with SKIP LOCKED so that of servers claiming at once each takes other
 * rows, and timed by the database's clock (or the caller's, as the table says). The owner's
 * claim is its fencing token: a write under a lease checks the owner still holds it.
 */
export interface Leases<R, Tx = unknown> {
  /** Leases up to `limit` due rows not leased (or whose lease ran out) to `owner`; answers them. */
  claim(request: LeaseClaim<R>): Promise<R[]>;
  /**
   * Extends by `leaseMs` the leases `owner` holds (only those of `keys`, when given) on rows
   * still held; answers their keys, so work whose lease was lost meanwhile can be let go.
   */
  renew(owner: string, leaseMs: number, options?: { keys?: readonly string[]; now?: number }): Promise<string[]>;
  /**
   * Leases the held rows of `keys` to `owner` for `leaseMs`, whoever held them: a server
   * restarted alone on its database gives a worker back the runs it was running.
   */
  adopt(owner: string, keys: readonly string[], leaseMs: number, now?: number): Promise<void>;
  /** Who holds the lease of the row of `key` while it has not run out (a worker's report is fenced by it). */
  holder(key: string, now?: number): Promise<string | undefined>;
  /** Lets go of the leases `owner` holds (only those of `keys`), or of every lease without an owner. */
  release(owner?: string, keys?: readonly string[]): Promise<void>;
  /**
   * The leases that ran out on rows still held, locked while `work` takes them over in the
   * same transaction `tx` (fails them, or claims them again): of servers looking at once,
   * each row goes to one.
   */
  takeOverExpired<T>(work: (expired: ExpiredLease[], tx: Tx) => Promise<T>, now?: number, only?: (owner: string | null) => boolean): Promise<T>;
}
