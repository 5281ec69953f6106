import { InvalidInputError } from '../../domain/domain-errors.js';
import { agentFormPage, agentUpdateOf } from '../catalog-pages.js';
import { page, seeOther } from '../page-reply.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `POST /agents/:uid`: the named agent's form; one the service refuses is shown again, filled in as it was sent. */
export const updateNamedAgentRoute: SignedInRoute = {
  method: 'POST',
  path: '/agents/:uid',
  async handle({ params, app, session, caller, form }) {
    try {
      await app.namedAgents.update(params.uid!, agentUpdateOf(form), caller);
      return seeOther('/agents');
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      return page(agentFormPage(session, await app.namedAgents.get(params.uid!, caller), form, error.message), 400);
    }
  },
};
