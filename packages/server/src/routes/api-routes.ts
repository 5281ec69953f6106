import type { Route } from '../http/route.js';
import { cancelRunRoute } from './cancel-run.js';
import { createRunRoute, createRunsRoute } from './create-run.js';
import { getRunRoute } from './get-run.js';
import { healthzRoute } from './healthz.js';
import { listRunsRoute } from './list-runs.js';
import { openapiRoute } from './openapi.js';
import { runEventsRoute } from './run-events.js';
import { runOutputRoute } from './run-output.js';
import { sessionEventsRoute } from './session-events.js';
import { sessionLiveScriptRoute } from './session-live-script.js';
import { sessionPageRoute } from './session-page.js';

/** Every route the server answers. */
export function apiRoutes(executorName: string): Route[] {
  return [
    createRunRoute,
    createRunsRoute,
    listRunsRoute,
    getRunRoute,
    cancelRunRoute,
    runEventsRoute,
    runOutputRoute,
    openapiRoute,
    healthzRoute,
    sessionLiveScriptRoute,
    sessionPageRoute(executorName),
    sessionEventsRoute,
  ];
}
