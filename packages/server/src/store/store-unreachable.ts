/** SQLSTATE classes and codes that mean the database is not there now, not that the request is wrong. */
const UNREACHABLE_SQLSTATE = /^(08...|57P01|57P02|57P03|53300)$/;
const UNREACHABLE_SYSCALL = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether a store call failed because the database cannot be reached (stopped, restarting,
 * network down): the same call may succeed once it returns.
 */
export function isStoreUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_SYSCALL.has(code))) return true;
  // node-postgres's own words when the connection drops or cannot be had in time.
  return /Connection terminated|connection timeout|Client has encountered a connection error|the database system is (shutting down|starting up)/i.test(error.message);
}
