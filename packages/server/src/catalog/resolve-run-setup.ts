import type { AmbientAgentConfig, MCPServers, RunBudget } from '@agent-runs/core/contract';
import { invalidField } from '../domain/invalid-request-input.js';
import type { NamedAgentRecord, NamedAgentStore } from '../store/named-agents/named-agent-store.js';
import type { RunOrigin } from '../store/runs/run-record.js';
import type { EnvironmentRegistry } from './environment-registry.js';
import { unknownWorkerHost } from './worker-hosts.js';
import type { SkillCatalog, SkillVariant } from './skill-catalog.js';
import { matchSkill } from './skill-spec.js';

/** How the caller's request names each source, for errors (a run's `config.x`, a schedule's `agent_config.x`). */
export interface SetupFieldNames {
  config: string;
  skill: string;
  identity: string;
}

export const RUN_FIELDS: SetupFieldNames = { config: 'config', skill: 'skill', identity: 'agent_identity_uid' };
export const SCHEDULE_FIELDS: SetupFieldNames = { config: 'agent_config', skill: 'agent_config.skill_spec', identity: 'agent_uid' };

export interface RunSetupRequest {
  config?: AmbientAgentConfig | undefined;
  skill?: string | undefined;
  identityUid?: string | undefined;
  /** Who asks: a named agent another principal made is not theirs to use (unless runs are shared). */
  principal?: string | undefined;
}

export interface ResolvedRunSetup {
  /** The run's resolved config: identity defaults under the request's own members, skill text as base prompt. */
  config: AmbientAgentConfig;
  origin: RunOrigin;
}

/** The base prompt reaches the agent in one environment variable; the kernel caps one at 128 KiB. */
export const MAX_BASE_PROMPT_BYTES = 96 * 1024;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined);

/**
 * Turns what a create names (a skill, an environment, a named agent) into the run's config.
 * Request members win over the named agent's; an unknown name is a 400 naming the field.
 */
export class RunSetupResolver {
  constructor(
    private readonly environments: EnvironmentRegistry,
    private readonly skills: SkillCatalog,
    private readonly identities: NamedAgentStore,
    /** Whether a principal may use a named agent (the named agents' visibility rule). */
    private readonly mayUse: (identity: NamedAgentRecord, principal: string | undefined) => boolean = () => true,
    /** The worker ids the configuration's worker tokens name: what a worker_host may be. */
    private readonly workerHosts: readonly string[] = [],
  ) {}

  /** A worker_host no worker token names is a 400 naming `field`, now rather than when a run waits forever. */
  checkWorkerHost(host: unknown, field: string): void {
    const unknown = unknownWorkerHost(this.workerHosts, typeof host === 'string' ? host : undefined, field);
    if (unknown) throw unknown;
  }

  async resolve(request: RunSetupRequest, fields: SetupFieldNames = RUN_FIELDS): Promise<ResolvedRunSetup> {
    const own = request.config ?? {};
    let defaults: AmbientAgentConfig = {};
    let identityPrompt: string | undefined;
    let identityName: string | undefined;
    if (request.identityUid !== undefined) {
      const found = await this.identities.get(request.identityUid);
      const identity = found && this.mayUse(found, request.principal) ? found : undefined;
      if (!identity) throw invalidField(fields.identity, `"${request.identityUid}" names no named agent of this server (see GET /agent/identities).`);
      const b = identity.body;
      identityPrompt = text(b.prompt);
      identityName = identity.name;
      defaults = {
        ...(text(b.environment_id) ? { environment_id: b.environment_id as string } : {}),
        ...(text(b.base_model) ? { model_id: b.base_model as string } : {}),
        ...(text(b.worker_host) ? { worker_host: b.worker_host as string } : {}),
        ...(b.budget ? { budget: b.budget as RunBudget } : {}),
        ...(Array.isArray(b.skills) && b.skills.length ? { skills: b.skills as string[] } : {}),
      };
      const mcp = { ...((b.mcp_servers as MCPServers | undefined) ?? {}), ...(own.mcp_servers ?? {}) };
      if (Object.keys(mcp).length) defaults.mcp_servers = mcp;
    }
    const config: AmbientAgentConfig = { ...defaults, ...own, ...(defaults.mcp_servers ? { mcp_servers: defaults.mcp_servers } : {}) };

    if (config.environment_id !== undefined && !this.environments.get(config.environment_id)) {
      const field = own.environment_id !== undefined ? `${fields.config}.environment_id` : `${fields.identity} (environment_id)`;
      throw this.environments.unknownEnvironment(field, config.environment_id);
    }
    const askedPr = own['pull_request'];
    if (askedPr !== undefined && askedPr !== 'off') {
      const env = config.environment_id !== undefined ? this.environments.get(config.environment_id) : undefined;
      if (!env?.repos.some((repo) => repo.pullRequests)) throw this.environments.noPullRequests(`${fields.config}.pull_request`, config.environment_id);
    }

    const primarySpec = request.skill ?? own.skill_spec;
    const origin: RunOrigin = {};
    const texts: string[] = [];
    let primary: SkillVariant | undefined;
    if (primarySpec !== undefined) {
      primary = await this.find(primarySpec, request.skill !== undefined ? fields.skill : `${fields.config}.skill_spec`);
      config.skill_spec = primarySpec;
      texts.push(primary.basePrompt);
      origin.agent_skill = { name: primary.name, description: primary.description || undefined, full_path: primary.id };
      origin.skill_id = primary.id;
    } else {
      const extra = Array.isArray(config.skills) ? (config.skills as unknown[]) : [];
      const variants = await this.skills.variants();
      for (const [i, spec] of extra.entries()) {
        if (typeof spec !== 'string') continue;
        if (own.skills === undefined) {
          texts.push((await this.find(spec, `${fields.identity} (skills[${i}])`)).basePrompt);
          continue;
        }
        // A request's own config.skills is kept as given; those this server has add their text.
        const match = matchSkill(variants, spec);
        if (match.ok) texts.push(match.variant.basePrompt);
      }
    }
    if (own.base_prompt === undefined) {
      const base = [identityPrompt, ...texts].filter(Boolean).join('\n\n');
      const bytes = Buffer.byteLength(base);
      if (bytes > MAX_BASE_PROMPT_BYTES) {
        throw invalidField(
          fields.identity,
          `the named agent's prompt and skills come to ${Math.ceil(bytes / 1024)} KiB of base prompt, over the limit of ${MAX_BASE_PROMPT_BYTES / 1024} KiB; use fewer skills.`,
        );
      }
      if (base) config.base_prompt = base;
    }
    const name = own.name ?? primary?.name ?? identityName;
    if (name !== undefined) config.name = name;
    return { config, origin };
  }

  /** Checks that each skill spec names a usable skill (a named agent's `skills`). */
  async checkSkills(specs: readonly string[], field: string): Promise<void> {
    for (const [i, spec] of specs.entries()) await this.find(spec, `${field}[${i}]`);
  }

  private async find(spec: string, field: string): Promise<SkillVariant> {
    const match = matchSkill(await this.skills.variants(), spec);
    if (!match.ok) throw invalidField(field, `${match.reason}.`);
    return match.variant;
  }
}
