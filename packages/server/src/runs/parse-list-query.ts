import { LIST_LIMIT_DEFAULT, ListRunsQuerySchema, listQueryFromSearchParams } from '@agent-runs/core/contract';
import { invalidField, invalidInput } from '../domain/invalid-request-input.js';
import { InvalidInputError } from '../domain/domain-errors.js';
import { decodeCursor } from '../store/runs/list-cursor.js';
import type { RunListQuery } from '../store/runs/run-store.js';

/** Parameters that take several values by repetition; any other given twice is a mistake. */
const REPEATABLE = new Set(['state']);

/** `?state=A&state=B&metadata[k]=v` → a validated store query; an InvalidInputError names each bad parameter. */
export function parseListQuery(params: URLSearchParams): RunListQuery {
  const raw = listQueryFromSearchParams(params);
  const repeated = Object.entries(raw).filter(([name, value]) => Array.isArray(value) && !REPEATABLE.has(name));
  if (repeated.length) {
    throw new InvalidInputError(
      repeated.map(([name, value]) => ({ path: name, message: `given ${(value as string[]).length} times; pass it once` })),
      repeated.map(([name, value]) => `${name}: given ${(value as string[]).length} times; pass it once`).join('; ') + '.',
    );
  }
  // The schema is strict: an unknown parameter is named in the contract's words.
  const parsed = ListRunsQuerySchema.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error, 'query');
  const q = parsed.data;
  const sortBy = q.sort_by ?? 'updated_at';
  const sortOrder = q.sort_order ?? 'desc';
  const query: RunListQuery = { limit: q.limit ?? LIST_LIMIT_DEFAULT, sortBy, sortOrder };
  if (q.cursor !== undefined) {
    const cursor = decodeCursor(q.cursor);
    if (!cursor) throw invalidField('cursor', 'not a cursor from this server; pass page_info.next_cursor as it came.');
    if (cursor.sortBy !== sortBy || cursor.sortOrder !== sortOrder) {
      throw invalidField('cursor', `it belongs to sort_by=${cursor.sortBy}&sort_order=${cursor.sortOrder}; pass the same sort as the page it came from.`);
    }
    query.after = cursor;
  }
  const name = q.name ?? q.config_name;
  if (q.name !== undefined && q.config_name !== undefined && q.name !== q.config_name) {
    throw invalidField('name', 'name and config_name are the same filter; pass one, or the same value.', 'query: name and config_name are the same filter; pass one, or the same value.');
  }
  const skillSpec = q.skill_spec ?? q.skill;
  if (q.state) query.states = q.state;
  if (name !== undefined) query.name = name;
  if (q.model_id !== undefined) query.modelId = q.model_id;
  if (q.creator !== undefined) query.creator = q.creator;
  if (q.source !== undefined) query.source = q.source;
  if (q.environment_id !== undefined) query.environmentId = q.environment_id;
  if (skillSpec !== undefined) query.skillSpec = skillSpec;
  // Stored timestamps are UTC with milliseconds; bounds are normalised to compare as text.
  if (q.created_after) query.createdAfter = new Date(q.created_after).toISOString();
  if (q.created_before) query.createdBefore = new Date(q.created_before).toISOString();
  if (q.updated_after) query.updatedAfter = new Date(q.updated_after).toISOString();
  if (q.q) query.q = q.q;
  if (q.schedule_id !== undefined) query.scheduleId = q.schedule_id;
  if (q.executor !== undefined) query.executor = q.executor;
  if (q.metadata !== undefined) query.metadata = q.metadata;
  if (q.ancestor_run_id !== undefined) query.ancestorRunId = q.ancestor_run_id;
  if (q.artifact_type !== undefined) query.artifactType = q.artifact_type;
  // Every run here is LOCAL, and this server records no automations or factories: these match nothing.
  if (q.execution_location === 'REMOTE' || q.automation_id !== undefined || q.factory_uid !== undefined) {
    query.nothing = true;
  }
  return query;
}
