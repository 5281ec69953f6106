import type { AppRouteRequest } from './app-context.js';
import { checkSessionAccess } from '../http/session-access.js';
import type { RunRecord } from '../runs/run-reads.js';

/**
 * The run a session page shows, once the caller may see it (the link's token, or a key
 * that can read the run); a 404 or 403 otherwise. The page and its event stream both use
 * this, so the stream is exactly as private as the page.
 */
export async function sessionRun({ req, url, params, app }: Pick<AppRouteRequest, 'req' | 'params' | 'app' | 'url'>): Promise<RunRecord> {
  const run = await app.reads.bySession(params.sessionId!);
  checkSessionAccess(req, url, { sessionId: run.sessionId, mayRead: (principal) => app.runs.mayRead(principal, run) }, app);
  return run;
}
