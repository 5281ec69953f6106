import type { RunCreatorInfo } from '@agent-runs/core/contract';
import { ApiProblem } from '../http/api-problem.js';
import type { AppRoute, AppRouteRequest, RouteResult } from '../routes/app-context.js';
import { callerOf, checkCsrf, checkOrigin, cookieOf, COOKIE, readForm, type PostedForm } from './dashboard-request.js';
import type { DashboardSession } from './dashboard-sessions.js';
import type { DashboardState } from './dashboard-state.js';
import { errorPageOf } from './error-page.js';
import { seeOther } from './page-reply.js';

/** What a signed-in page handler gets. */
export interface DashboardRequest extends AppRouteRequest {
  session: DashboardSession;
  caller: RunCreatorInfo;
  /** What the dashboard's routes share. */
  dashboard: DashboardState;
  /** The posted form's text fields (POST routes only). */
  form: URLSearchParams;
  /** Its files, on a route that takes them. */
  files: PostedForm['files'];
}

/** A page or a form post of the dashboard, for a signed-in browser only. */
export interface SignedInRoute {
  method: 'GET' | 'POST';
  path: string;
  handle(request: DashboardRequest): Promise<RouteResult> | RouteResult;
  /** The route takes a multipart form with files. */
  withFiles?: boolean;
  /** Shows a form that could not be read (too large, say), instead of the error page. */
  formProblem?: (request: Omit<DashboardRequest, 'form' | 'files'>, problem: ApiProblem) => Promise<RouteResult>;
}

/**
 * The route as the server serves it: a browser without a session is sent to sign in; a post
 * must come from this server's pages and carry the session's CSRF token; a refusal is a page.
 */
export function signedInRoute(dashboard: DashboardState, route: SignedInRoute): AppRoute {
  const post = route.method === 'POST';
  return {
    method: route.method,
    path: route.path,
    auth: false,
    ...(post ? { form: true as const } : {}),
    async handle(request) {
      const session = dashboard.sessions.find(cookieOf(request.req, COOKIE));
      try {
        // The headers are checked before a byte of the body is read: a post from elsewhere, or without a session, sends none in.
        if (post) checkOrigin(request.req);
        if (!session) {
          if (post) request.req.resume();
          const here = request.url.pathname + request.url.search;
          return seeOther(`/sign-in?next=${encodeURIComponent(post ? '/' : here)}`);
        }
        const signed = { ...request, session, caller: callerOf(session), dashboard };
        let posted: PostedForm = { fields: new URLSearchParams(), files: [] };
        if (post) {
          try {
            posted = await readForm(request.req, route.withFiles === true);
          } catch (error) {
            if (!(error instanceof ApiProblem) || !route.formProblem || error.status >= 500) throw error;
            return await route.formProblem(signed, error);
          }
          checkCsrf(posted.fields, session);
        }
        return await route.handle({ ...signed, form: posted.fields, files: posted.files });
      } catch (error) {
        return errorPageOf(error, session);
      }
    },
  };
}
