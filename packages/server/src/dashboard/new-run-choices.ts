import type { RunCreatorInfo } from '@agent-runs/core/contract';
import type { AppContext } from '../routes/app-context.js';
import { modelChoicesOf } from './model-choices.js';
import type { NewRunChoices } from './new-run-page.js';

/** Named agents the start form lists (a list page's most); beyond them it takes a typed uid. */
const NAMED_AGENT_CHOICES = 500;

/** What the start form offers the caller: environments, skills, named agents, harnesses and models. */
export async function newRunChoices(app: AppContext, caller: RunCreatorInfo): Promise<NewRunChoices> {
  const [environments, skills, agents] = await Promise.all([
    app.catalog.listEnvironments(caller),
    app.catalog.listSkills({}, caller).catch(() => ({ agents: [] })),
    app.namedAgents.list(caller, { limit: NAMED_AGENT_CHOICES }),
  ]);
  return {
    environments: environments.environments.map((e) => ({ uid: e.uid, name: e.config.name ?? e.uid })),
    skills: skills.agents.flatMap((s) => s.variants.map((v) => v.id)),
    agents: agents.agents.map((a) => ({ uid: a.uid, name: a.name })),
    moreAgents: agents.page_info?.has_next_page === true,
    ...modelChoicesOf(app.models),
  };
}
