import type { AppRoute } from './app-context.js';

/**
 * `GET /healthz`: the server answers, its store is readable and the disks it writes to have
 * room; 503 "the database is unreachable" or "the disk holding … is full" while not.
 */
export const healthzRoute: AppRoute = {
  method: 'GET',
  path: '/healthz',
  auth: false,
  async handle({ app }) {
    await app.reads.health();
    return { ok: true };
  },
};
