import { buildOpenApi } from '../openapi/build-openapi.js';
import type { AppRoute } from './app-context.js';

/**
 * `GET /api/v1/openapi.json`: built from `routes` (each carries its operation) on the first
 * request, not at start: converting the contract schemas takes a while.
 */
export function openapiRoute(routes: readonly AppRoute[]): AppRoute {
  let cached: object | undefined;
  return {
    method: 'GET',
    path: '/api/v1/openapi.json',
    auth: false,
    // The document does not describe itself.
    openapi: false,
    handle() {
      cached ??= buildOpenApi(routes);
      return cached;
    },
  };
}
