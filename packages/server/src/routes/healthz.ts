import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

/** `GET /healthz`: the server answers and its store is readable. */
export const healthzRoute: Route = {
  method: 'GET',
  path: '/healthz',
  auth: false,
  async handle({ res, app }) {
    await app.store.get('healthz');
    sendJson(res, 200, { ok: true });
  },
};
