/**
 * PostgreSQL: the transaction lock one principal's creates take turns on, on whichever server
 * of the database they arrive: of the two-key advisory locks (apart from the one-key locks of
 * the mailbox and the migrations), this class ('quot') and the hash of the principal's name.
 * Two principals of one hash only wait on each other. Taken by a create held to a quota
 * (before it reads the principal's standing) and by the turn a created run takes (before it
 * reads the principal's line), so neither counts without the creates committed before it;
 * a session that holds it already takes it again at once.
 */
export const PRINCIPAL_LOCK_CLASS = 0x71756f74;

/** The lock, its principal's name the statement's `$1`-style parameter or a SQL expression. */
export const principalLock = (creator: string) => `pg_advisory_xact_lock(${PRINCIPAL_LOCK_CLASS}, hashtext(${creator}))`;
