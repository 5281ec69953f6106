import { KNOWN_RUN_STATES, type IssueNames, type ListRunsQuery } from '@agent-runs/core';
import { UsageError } from '../usage-error.js';
import type { ParsedFlags } from '../flags/parsed-flags.js';
import { timestampFlag } from './timestamp-flag.js';

/** Which flag sets each query parameter: the client's validation errors name these. */
export const LIST_FLAG_NAMES: IssueNames = {
  limit: '--limit',
  sort_by: '--sort-by',
  sort_order: '--sort-order',
  state: '--state',
  name: '--name',
  model_id: '--model',
  creator: '--creator',
  source: '--source',
  environment_id: '--environment',
  skill_spec: '--skill',
  created_after: '--created-after',
  created_before: '--created-before',
  updated_after: '--updated-after',
  q: '--search',
};

/** Flag name → query parameter, for the filters that are a plain string. */
const STRING_FILTERS = {
  name: 'name',
  model: 'model_id',
  creator: 'creator',
  environment: 'environment_id',
  skill: 'skill_spec',
  q: 'q',
  search: 'q',
} as const;

const TIME_FILTERS = {
  'created-after': 'created_after',
  'created-before': 'created_before',
  'updated-after': 'updated_after',
} as const;

/** The list query the flags describe (states and sources upper-cased); the client validates it (name issues with LIST_FLAG_NAMES). */
export function listQueryFromFlags(flags: ParsedFlags, now = Date.now()): ListRunsQuery {
  const query: Record<string, unknown> = {};
  // An empty filter would match every run: a mistake (an unset shell variable), not "no filter".
  for (const [flag, param] of Object.entries(STRING_FILTERS)) {
    const value = flags.nonEmpty(flag);
    if (value !== undefined) query[param] = value;
  }
  for (const [flag, param] of Object.entries(TIME_FILTERS)) {
    const value = flags.string(flag);
    if (value !== undefined) query[param] = timestampFlag(value, now, `--${flag}`, flags.command);
  }
  // `--state FAILED --state ERROR` and `--state failed,error` mean the same.
  const given = flags.list('state');
  const states = given.flatMap((v) => v.split(',')).map((v) => v.trim().toUpperCase()).filter(Boolean);
  if (given.length > 0 && states.length === 0) {
    throw new UsageError(`--state must name a run state (${KNOWN_RUN_STATES.join(', ')}), got "${given.join(',')}".`, flags.command);
  }
  if (states.length > 0) query.state = states;
  const source = flags.string('source');
  if (source !== undefined) query.source = source.trim().toUpperCase();
  const limit = flags.string('limit');
  if (limit !== undefined) query.limit = limit.trim() === '' ? Number.NaN : limit;
  const sortBy = flags.string('sort-by');
  if (sortBy !== undefined) query.sort_by = sortBy.trim().toLowerCase();
  const sortOrder = flags.string('sort-order');
  if (sortOrder !== undefined) query.sort_order = sortOrder.trim().toLowerCase();

  return query as ListRunsQuery;
}
