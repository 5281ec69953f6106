import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../src/openapi/build-openapi.js';
import { apiRoutes } from '../src/routes/api-routes.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const routes = apiRoutes('simulated');
/** The routes of the API, as `METHOD /path/{param}` relative to the document's server URL. */
const apiOperations = routes
  .filter((route) => route.path.startsWith('/api/v1/') && route.path !== '/api/v1/openapi.json')
  .map((route) => ({ route, key: `${route.method} ${route.path.slice('/api/v1'.length).replace(/:([^/]+)/g, '{$1}')}` }));

interface Operation {
  parameters?: { name: string; in: string }[];
  security?: unknown[];
  responses?: Record<string, unknown>;
}

describe('the OpenAPI document, built from the routes', () => {
  it('has one operation for each route of the API, with its path parameters and whether it needs a key, and no other', async () => {
    for (const { route, key } of apiOperations) expect({ key, documented: ['object', 'function'].includes(typeof route.openapi) }).toEqual({ key, documented: true });
    const res = await t.raw('/api/v1/openapi.json', { key: null });
    expect(res.status).toBe(200);
    const documented = Object.entries(res.body.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );
    expect(documented.map((d) => d.key).sort()).toEqual(apiOperations.map((o) => o.key).sort());
    for (const { route, key } of apiOperations) {
      const { operation } = documented.find((d) => d.key === key)!;
      const pathParams = [...route.path.matchAll(/:([^/]+)/g)].map(([, name]) => name);
      expect({ key, pathParams: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name) }).toEqual({ key, pathParams });
      // A route an agent's run token opens names both credentials, and its 403 beyond the token's scope.
      const security = route.auth === 'worker' ? [{ workerToken: [] }] : route.runToken ? [{ bearerAuth: [] }, { runToken: [] }] : route.auth ? undefined : [];
      expect({ key, security: operation.security }).toEqual({ key, security });
      if (route.runToken) expect({ key, forbidden: Object.keys(operation.responses ?? {}).includes('403') }).toEqual({ key, forbidden: true });
    }
  });

  it('refuses to build when a route of the API carries no operation, naming the route', () => {
    const undocumented = { method: 'GET', path: '/api/v1/agent/undocumented/:id', auth: true };
    expect(() => buildOpenApi([...routes, undocumented])).toThrow(
      'GET /api/v1/agent/undocumented/:id has no OpenAPI operation: give the route its `openapi` field.',
    );
  });
});
