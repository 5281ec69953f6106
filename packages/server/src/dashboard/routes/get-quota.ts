import { page } from '../page-reply.js';
import { quotaPage } from '../quota-page.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /quota`: the signed-in principal's quotas and its use of them. */
export const getQuotaPageRoute: SignedInRoute = {
  method: 'GET',
  path: '/quota',
  handle: async ({ app, session, caller }) => page(quotaPage(session, await app.runs.quotas.use(caller.uid))),
};
