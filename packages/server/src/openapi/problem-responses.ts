import { problem } from './openapi-parts.js';

/** The problem answers operations share, each keyed by its status. */
export const invalidRequest = { '400': problem('Invalid request') };
export const unauthorized = { '401': problem('Missing or unknown API key') };
export const noSuchRun = { '404': problem('No such run') };
/** What an operation on one run may answer besides its success. */
export const runProblems = { ...invalidRequest, ...unauthorized, ...noSuchRun };
/** What an operation on what a run made (its follow-ups, conversation, transcript, files) may answer. */
export const runPartProblems = { ...unauthorized, ...noSuchRun };
/** What an operation of the catalog (schedules, environments, skills, named agents) may answer. */
export const catalogProblems = { ...invalidRequest, ...unauthorized };
export const noSuchCatalogItem = { '404': problem('No such schedule or named agent') };
/** What an operation on one webhook subscription may answer. */
export const webhookProblems = { ...unauthorized, '404': problem('No such webhook, or another principal’s') };
