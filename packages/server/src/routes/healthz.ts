import type { AppRoute } from './app-context.js';

/** `GET /healthz`: the server answers and its store is readable; 503 "the database is unreachable" while it is not. */
export const healthzRoute: AppRoute = {
  method: 'GET',
  path: '/healthz',
  auth: false,
  async handle({ app }) {
    await app.reads.ping();
    return { ok: true };
  },
};
