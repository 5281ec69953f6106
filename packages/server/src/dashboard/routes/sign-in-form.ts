import type { AppRoute } from '../../routes/app-context.js';
import { cookieOf, COOKIE } from '../dashboard-request.js';
import type { DashboardState } from '../dashboard-state.js';
import { page, seeOther } from '../page-reply.js';
import { safeNext } from '../sign-in-next.js';
import { signInPage } from '../sign-in-page.js';

/** `GET /sign-in`: the form for an API key; a browser already signed in goes on to `next`. */
export function signInFormRoute({ sessions }: DashboardState): AppRoute {
  return {
    method: 'GET',
    path: '/sign-in',
    auth: false,
    handle: ({ req, url }) => {
      if (sessions.find(cookieOf(req, COOKIE))) return seeOther(safeNext(url.searchParams.get('next')));
      return page(signInPage(safeNext(url.searchParams.get('next'))));
    },
  };
}
