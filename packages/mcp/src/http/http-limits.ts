/** Sessions held at once: each is an MCP server with its waits and timers, so they are not free. */
export const DEFAULT_MAX_SESSIONS = 100;
/** The shortest bearer token accepted: a short one can be guessed over the network. */
export const MIN_AUTH_TOKEN_LENGTH = 16;
