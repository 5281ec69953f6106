import type { AppRoute } from './app-context.js';
import { buildOpenApi } from '../openapi/build-openapi.js';

let cached: object | undefined;

/** `GET /api/v1/openapi.json`: generated from the contract schemas on first request. */
export const openapiRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/openapi.json',
  auth: false,
  handle() {
    cached ??= buildOpenApi() as object;
    return cached;
  },
};
