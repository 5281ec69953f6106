import { skillsPage } from '../catalog-pages.js';
import { page } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /skills`: the skills a run can use, each variant on a row. */
export const listSkillsRoute: SignedInRoute = {
  method: 'GET',
  path: '/skills',
  handle: async ({ app, session, caller }) => page(skillsPage(session, await app.catalog.listSkills({}, caller))),
};
