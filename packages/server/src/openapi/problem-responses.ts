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
/** A create or follow-up over a principal quota (the configuration file's `quotas:`), with when it frees; 402 at its daily spend cap. */
export const overQuota = {
  '402': {
    ...problem("The principal's runs spent its daily cap (spend_per_day_usd): budget_exceeded, naming the cap, the spend and when it resets"),
    headers: { 'Retry-After': { description: 'Seconds until the next UTC midnight, when the daily spend starts again', schema: { type: 'integer' } } },
  },
  '429': {
    ...problem('Over a principal quota; the problem names it and when it frees'),
    headers: {
      'Retry-After': { description: 'Seconds until the quota may allow the request', schema: { type: 'integer' } },
      'RateLimit-Policy': { description: 'The quota, as draft-ietf-httpapi-ratelimit-headers has it: "creates";q=60;w=60', schema: { type: 'string' } },
      RateLimit: { description: 'What is left of it: "creates";r=0;t=12', schema: { type: 'string' } },
    },
  },
};
