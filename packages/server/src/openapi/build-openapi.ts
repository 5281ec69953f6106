import { VERSION } from '@agent-runs/core/contract';
import { componentSchemas } from './components.js';
import type { DocumentedRoute } from './openapi-operation.js';
import { problem, type JsonSchema } from './openapi-parts.js';

/** The prefix of the API's routes; the document's `servers` entry, so its paths are written without it. */
const API_PREFIX = '/api/v1';

/**
 * The OpenAPI 3 document of this server, built by walking its routes: each route under
 * `/api/v1/` carries its operation (summary, parameters, body, answers) beside its handler,
 * so a route cannot be served undocumented, nor an operation documented without a route.
 * A route's path parameters come from its path; `auth: false` is `security: []`.
 */
export function buildOpenApi(routes: readonly DocumentedRoute[]): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (!route.path.startsWith(`${API_PREFIX}/`)) continue;
    if (route.openapi === false) continue;
    if (route.openapi === undefined) {
      throw new Error(`${route.method} ${route.path} has no OpenAPI operation: give the route its \`openapi\` field.`);
    }
    const { parameters = [], ...operation } = typeof route.openapi === 'function' ? route.openapi() : route.openapi;
    const path = route.path.slice(API_PREFIX.length).replace(/:([^/]+)/g, '{$1}');
    const method = route.method.toLowerCase();
    const item = (paths[path] ??= {});
    if (item[method]) throw new Error(`${route.method} ${route.path} is documented twice.`);
    const all = [...pathParameters(route.path), ...parameters];
    item[method] = {
      ...operation,
      ...(all.length ? { parameters: all } : {}),
      ...(route.auth === 'worker' ? { security: [{ workerToken: [] }] } : route.auth ? {} : { security: [] }),
      // An agent's run token opens these too, within its run's family: beyond it, a 403.
      ...(route.runToken
        ? { security: [{ bearerAuth: [] }, { runToken: [] }], responses: { ...operation.responses, '403': problem('A run token used beyond its scope (its run’s family)') } }
        : {}),
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Agent Runs API (local server)', version: VERSION },
    servers: [{ url: API_PREFIX }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer' },
        // The worker endpoints' credential: a token of the configuration's `workers:` section, never an API key.
        workerToken: { type: 'http', scheme: 'bearer', description: 'A worker token (the configuration file\'s workers: section)' },
        runToken: { type: 'http', scheme: 'bearer', description: 'A run token (AGENT_RUNS_RUN_TOKEN, given to each execution\'s agent): its run\'s family only, while the run runs' },
      },
      schemas: componentSchemas(),
    },
  };
}

/** A route path's `:name` segments, as required string parameters. */
function pathParameters(path: string): unknown[] {
  return [...path.matchAll(/:([^/]+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}
