import { newRunChoices } from '../new-run-choices.js';
import { newRunPage } from '../new-run-page.js';
import { page } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /new`: the form that starts a run. */
export const newRunFormRoute: SignedInRoute = {
  method: 'GET',
  path: '/new',
  handle: async ({ app, session, caller }) => page(newRunPage(session, await newRunChoices(app, caller))),
};
