import type { Route } from '../http/route.js';
import { cancelRunRoute } from './cancel-run.js';
import { conversationRedirectRoute } from './conversation-redirect.js';
import { createRunRoute, createRunsRoute } from './create-run.js';
import { getRunRoute } from './get-run.js';
import { healthzRoute } from './healthz.js';
import { listRunsRoute } from './list-runs.js';
import { openapiRoute } from './openapi.js';
import { sessionPageRoute } from './session-page.js';
import { sessionRedirectRoute } from './session-redirect.js';

/** Every route the server answers. */
export function apiRoutes(executorName: string): Route[] {
  return [
    createRunRoute,
    createRunsRoute,
    listRunsRoute,
    getRunRoute,
    cancelRunRoute,
    sessionRedirectRoute,
    conversationRedirectRoute,
    openapiRoute,
    healthzRoute,
    sessionPageRoute(executorName),
  ];
}
