import type { Route } from '../http/route.js';
import { buildOpenApi } from '../openapi/build-openapi.js';

let cached: object | undefined;

/** `GET /api/v1/openapi.json`: generated from the contract schemas on first request. */
export const openapiRoute: Route = {
  method: 'GET',
  path: '/api/v1/openapi.json',
  auth: false,
  handle() {
    cached ??= buildOpenApi() as object;
    return cached;
  },
};
