/**
 * Sizes a create request may have. The prompt limit keeps one run, and a page of runs,
 * a bounded size everywhere it travels (list answers, MCP results, the session page).
 */

/** Longest `prompt`, in characters (UTF-16 code units, as JavaScript counts them). */
export const PROMPT_MAX_CHARS = 100_000;

/** Longest `title`, in characters. */
export const TITLE_MAX_CHARS = 1_000;

/**
 * The default limit of a request body, in bytes: room for the longest prompt even when
 * every character is sent escaped (`\uXXXX`, 6 bytes), and for the rest of the request.
 */
export const REQUEST_BODY_MAX_BYTES = 1024 * 1024;
