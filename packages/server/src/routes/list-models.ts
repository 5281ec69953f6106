import type { AppRoute } from './app-context.js';

/** `GET /agent/models`: the models of the harnesses this server can run, and which are disabled. */
export const listModelsRoute: AppRoute = {
  method: 'GET',
  path: '/api/v1/agent/models',
  auth: true,
  handle({ app }) {
    return app.models.list();
  },
};
