import pg from 'pg';

const NUL = /\u0000/g;

/** A value PostgreSQL text can hold: NUL (U+0000), which it cannot, becomes U+FFFD (in arrays too). */
function holdable(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replace(NUL, '\uFFFD') : value;
  return Array.isArray(value) ? value.map(holdable) : value;
}

/**
 * The pool's client: every string parameter goes in with NUL as U+FFFD. PostgreSQL text
 * cannot hold NUL, where SQLite keeps it; so a prompt, metadata value or agent's words
 * holding one is stored (with U+FFFD) instead of failing the request with a 500, and a
 * lookup by a value holding one finds nothing, as on SQLite. One place for every query.
 *
 * It also answers its own `error` event, for its whole life. The pool listens only while a
 * connection is idle; one checked out (a transaction, the migration) whose database restarts
 * or crashes emits `error` with no one listening, which ended the process. The query in
 * flight fails with that error anyway, the connection is no longer queryable, and the pool
 * discards it at release; so nothing is lost by not throwing it again.
 */
export class NulSafeClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }

  override query(...args: unknown[]): never {
    const [first, second] = args;
    if (Array.isArray(second)) {
      args[1] = second.map(holdable);
    } else if (first !== null && typeof first === 'object' && !('submit' in first) && Array.isArray((first as pg.QueryConfig).values)) {
      args[0] = { ...(first as pg.QueryConfig), values: (first as pg.QueryConfig).values!.map(holdable) };
    }
    return (super.query as (...all: unknown[]) => never)(...args);
  }
}
