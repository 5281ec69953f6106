import { ListRunsQuerySchema } from '@agent-runs/core/contract';
import type { z } from 'zod';
import { input, ok, type JsonSchema } from '../openapi/openapi-parts.js';
import { runProblems } from '../openapi/problem-responses.js';
import { parseListQuery } from '../runs/parse-list-query.js';
import type { AppRoute } from './app-context.js';

/** The list's query, one parameter per field: `state` repeats, `metadata[team]=core&metadata[env]=ci` is a deep object. */
function listParameters(): unknown[] {
  return Object.entries(ListRunsQuerySchema.shape).map(([name, schema]) => {
    const { description, ...rest } = input(schema as z.ZodType);
    return {
      name,
      in: 'query',
      required: false,
      description: description || undefined,
      schema: name === 'state' ? { type: 'array', items: (rest.items as JsonSchema) ?? rest } : rest,
      ...(name === 'state' ? { style: 'form', explode: true } : {}),
      ...(name === 'metadata' ? { style: 'deepObject', explode: true } : {}),
    };
  });
}

/** `GET /agent/runs`: a keyset page of runs, filtered and sorted. */
export const listRunsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/runs',
  auth: true,
  openapi: () => ({
    operationId: 'listRuns',
    summary: 'List runs, filtered and sorted, with keyset pagination',
    parameters: listParameters(),
    responses: { ...ok('A page of runs', 'ListRunsResponse'), ...runProblems },
  }),
  handle: ({ url, app, caller }) => app.reads.list(parseListQuery(url.searchParams), caller),
};
