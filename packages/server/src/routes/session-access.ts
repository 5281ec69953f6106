import { ApiProblem } from '../http/api-problem.js';
import type { RouteRequest } from '../http/route.js';
import type { RunRecord } from '../store/run-record.js';

/**
 * The run a session page shows, or a 404. The page, its event stream and anything else
 * under `/sessions/{sessionId}` use this one check, so each is as private as the page.
 */
export async function sessionRun({ params, app }: Pick<RouteRequest, 'params' | 'app' | 'url'>): Promise<RunRecord> {
  const run = await app.store.getBySession(params.sessionId!);
  if (!run) throw new ApiProblem('resource_not_found', `No session "${params.sessionId}".`);
  return run;
}
