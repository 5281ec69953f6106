/** Sessions held at once: each is an MCP server with its waits and timers, so they are not free. */
export const DEFAULT_MAX_SESSIONS = 100;
/** The shortest bearer token accepted: a short one can be guessed over the network. */
export const MIN_AUTH_TOKEN_LENGTH = 16;
/**
 * Requests one client address holds open at once (listen streams, GET streams, calls still
 * running), both revisions together: each open 2026-07-28 request is an MCP server of its own.
 */
export const DEFAULT_MAX_CLIENT_STREAMS = 128;
/** Requests one 2025-11-25 session holds open at once. */
export const DEFAULT_MAX_SESSION_STREAMS = 16;
