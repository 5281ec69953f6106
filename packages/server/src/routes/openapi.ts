import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';
import { buildOpenApi } from '../openapi/build-openapi.js';

let cached: unknown;

/** `GET /api/v1/openapi.json`: generated from the contract schemas on first request. */
export const openapiRoute: Route = {
  method: 'GET',
  path: '/api/v1/openapi.json',
  auth: false,
  handle({ res }) {
    cached ??= buildOpenApi();
    sendJson(res, 200, cached);
  },
};
