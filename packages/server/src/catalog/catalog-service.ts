import type { AgentSkill, ListAgentSkillsResponse, ListEnvironmentsResponse, RunCreatorInfo } from '@agent-runs/core/contract';
import type { CatalogActivity } from '../store/catalog/catalog-activity.js';
import type { EnvironmentRegistry } from './environment-registry.js';
import { toVariant, type SkillCatalog } from './skill-catalog.js';

/** How the skills list may be narrowed and sorted (the parsed `GET /agent` query). */
export interface SkillListOptions {
  refresh?: boolean | undefined;
  include_malformed_skills?: boolean | undefined;
  repo?: string | undefined;
  sort_by?: string | undefined;
}

/** The environments and skills a run can use, each with when a run last used it. */
export class CatalogService {
  constructor(
    private readonly environments: EnvironmentRegistry,
    private readonly skills: SkillCatalog,
    private readonly activity: CatalogActivity,
    /** Every key sees every principal's runs (RunService's sharing rule). */
    private readonly sharedRuns = false,
  ) {}

  /** Whose runs the caller may see: all with shared runs, else its own principal's. */
  private visibleCreator(caller: RunCreatorInfo): string | undefined {
    return this.sharedRuns ? undefined : (caller.uid ?? '');
  }

  /** The environments the configuration file declares, with the latest run the caller may see. */
  async listEnvironments(caller: RunCreatorInfo): Promise<ListEnvironmentsResponse> {
    const declared = this.environments.list();
    const creator = this.visibleCreator(caller);
    const lastRuns = await Promise.all(declared.map((env) => this.activity.lastRunInEnvironment(env.id, creator)));
    const environments = declared
      .map((env, i) => this.environments.toCloudEnvironment(env, lastRuns[i]))
      // All share one last_updated (the file's), so both sorts are by name.
      .sort((a, b) => (a.config.name ?? a.uid).localeCompare(b.config.name ?? b.uid));
    return { environments };
  }

  /** The skills the server found, grouped by name, each SKILL.md a variant. */
  async listSkills(q: SkillListOptions, caller: RunCreatorInfo): Promise<ListAgentSkillsResponse> {
    const lastRuns = await this.activity.lastRunOfSkills(this.visibleCreator(caller));
    const byName = new Map<string, AgentSkill>();
    for (const v of await this.skills.variants(q.refresh ?? false)) {
      if (v.error && !q.include_malformed_skills) continue;
      if (q.repo !== undefined && q.repo !== v.repo && q.repo !== `${v.owner}/${v.repo}`) continue;
      const skill = byName.get(v.name) ?? { name: v.name, variants: [] };
      skill.variants.push(toVariant(v, lastRuns.get(v.id)));
      byName.set(v.name, skill);
    }
    const latest = (s: AgentSkill) => s.variants.reduce((at, v) => (v.last_run_timestamp && v.last_run_timestamp > at ? v.last_run_timestamp : at), '');
    const agents = [...byName.values()].sort((a, b) =>
      q.sort_by === 'last_run' ? latest(b).localeCompare(latest(a)) || a.name.localeCompare(b.name) : a.name.localeCompare(b.name),
    );
    return { agents };
  }
}
