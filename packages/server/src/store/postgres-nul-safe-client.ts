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
 */
export class NulSafeClient extends pg.Client {
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
