import type { AppRoute } from '../../routes/app-context.js';
import { checkOrigin, readForm, sessionCookie } from '../dashboard-request.js';
import type { DashboardState } from '../dashboard-state.js';
import { errorPageOf } from '../error-page.js';
import { page, seeOther } from '../page-reply.js';
import { safeNext } from '../sign-in-next.js';
import { signInPage } from '../sign-in-page.js';

/** `POST /sign-in`: an API key for a session cookie, within the wrong keys an address may send and the sessions the server holds. */
export function signInRoute({ sessions, limits, attempts }: DashboardState): AppRoute {
  return {
    method: 'POST',
    path: '/sign-in',
    auth: false,
    form: true,
    async handle({ req, app }) {
      try {
        checkOrigin(req);
        const address = req.socket.remoteAddress ?? '';
        const waitMs = attempts.admit(address);
        if (waitMs > 0) {
          // Refused before the key is read: a guesser learns nothing from it.
          req.resume();
          const seconds = Math.ceil(waitMs / 1000);
          return page(signInPage('/', `Too many wrong keys from your address: try again in ${seconds} s.`), 429, { 'retry-after': String(seconds) });
        }
        const form = (await readForm(req)).fields;
        const next = safeNext(form.get('next'));
        const principal = app.auth.principalOfKey(form.get('api_key') ?? '');
        if (principal === undefined) {
          attempts.failed(address);
          return page(signInPage(next, 'That key is not one of this server\'s API keys.'), 401);
        }
        const session = sessions.open(principal);
        if (!session) {
          const full = `This server holds its most dashboard sessions (${limits.max}): try again once some have expired.`;
          return page(signInPage(next, full), 503, { 'retry-after': '60' });
        }
        return seeOther(next, { 'set-cookie': sessionCookie(req, session.id, Math.floor(limits.absoluteMs / 1000)) });
      } catch (error) {
        return errorPageOf(error, undefined);
      }
    },
  };
}
