import { ServerConfigError } from '../domain/server-config-error.js';

/** A PostgreSQL URL checked, with what may be shown of it (never the password). */
export interface PostgresTarget {
  /** The URL less its password, for messages. */
  shown: string;
  /** `PostgreSQL database agent_runs on db.internal:5432`, for the start-up line. */
  description: string;
}

/** Checks `url` is a PostgreSQL URL; the error never repeats the URL, which may hold a password. */
export function postgresTarget(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ServerConfigError('The database URL is not a valid URL; give one like postgres://user:password@host:5432/database.');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ServerConfigError(
      `The database URL must start with postgres:// or postgresql://, not ${parsed.protocol}//; give one like postgres://user:password@host:5432/database.`,
    );
  }
  const shown = new URL(parsed.href);
  shown.password = '';
  // Any query parameter naming a password (`password`, `sslpassword`) is a secret too.
  for (const name of [...shown.searchParams.keys()]) if (/password/i.test(name)) shown.searchParams.delete(name);
  const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || 'postgres';
  return { shown: shown.href, description: `PostgreSQL database ${database} on ${host}:${parsed.port || '5432'}` };
}
