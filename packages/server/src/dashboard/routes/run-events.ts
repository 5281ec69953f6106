import { streamRunEvents } from '../../routes/stream-run-events.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /runs/:runId/events`: the run page's live events, as the API streams them. */
export const runEventsRoute: SignedInRoute = {
  method: 'GET',
  path: '/runs/:runId/events',
  async handle(request) {
    const run = await request.app.runs.getOrThrow(request.params.runId!, request.caller);
    return streamRunEvents(request, run, (event) => event.data, { principal: request.caller.uid ?? '' });
  },
};
