import { sessionCookie } from '../dashboard-request.js';
import { seeOther } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `POST /sign-out`: ends the session and clears its cookie. */
export const signOutRoute: SignedInRoute = {
  method: 'POST',
  path: '/sign-out',
  handle({ req, session, dashboard }) {
    dashboard.sessions.close(session.id);
    return seeOther('/sign-in', { 'set-cookie': sessionCookie(req, '', 0) });
  },
};
