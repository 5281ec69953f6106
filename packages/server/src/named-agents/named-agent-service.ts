import {
  CreateAgentIdentityRequestSchema,
  UpdateAgentIdentityRequestSchema,
  PAGE_LIMIT_DEFAULT,
  type AgentIdentity,
  type ListAgentIdentitiesResponse,
  type RunCreatorInfo,
} from '@agent-runs/core/contract';
import { pageInfo, pageStart, type PageRequest } from '../store/owned-page.js';
import { NotFoundError } from '../domain/domain-errors.js';
import { invalidInput } from '../domain/invalid-request-input.js';
import type { EnvironmentRegistry } from '../catalog/environment-registry.js';
import type { RunSetupResolver } from '../catalog/resolve-run-setup.js';
import type { NamedAgentRecord, NamedAgentStore } from '../store/named-agents/named-agent-store.js';
import { timeOrderedId } from '../store/time-ordered-id.js';
import { namedAgentVisible } from './named-agent-visibility.js';
import type { ServerClock } from '../domain/server-clock.js';

/**
 * Named agents (the contract's agent identities). Every member is stored and shown as given; the server acts
 * on prompt, skills, mcp_servers, environment_id, base_model and worker_host when a run
 * names the agent, and only keeps the rest (memory, secrets, harness, ...).
 */
export class NamedAgentService {
  constructor(
    private readonly store: NamedAgentStore,
    private readonly setup: RunSetupResolver,
    private readonly environments: EnvironmentRegistry,
    private readonly clock: ServerClock,
    /** Every key sees every named agent; otherwise a key sees those its principal created. */
    private readonly shared = false,
  ) {}

  async create(body: unknown, caller: RunCreatorInfo): Promise<AgentIdentity> {
    const parsed = CreateAgentIdentityRequestSchema.safeParse(body ?? null);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const { name, ...rest } = parsed.data;
    const members = withoutNulls(rest);
    await this.check(members);
    const now = this.clock.now().toISOString();
    const record: NamedAgentRecord = { uid: timeOrderedId(), name, body: members, creatorUid: caller.uid ?? '', createdAt: now, updatedAt: now };
    await this.store.insert(record);
    return toAgentIdentity(record);
  }

  async get(uid: string, caller: RunCreatorInfo): Promise<AgentIdentity> {
    return toAgentIdentity(await this.getOrThrow(uid, caller));
  }

  /**
   * A page of the caller's named agents (every one when shared), oldest first, narrowed in
   * the query. This server has no factories: a factory filter keeps the page's agents that name it.
   */
  async list(caller: RunCreatorInfo, query: PageRequest & { factory_uid?: string | undefined } = {}): Promise<ListAgentIdentitiesResponse> {
    const afterSeq = pageStart(query.cursor);
    const limit = query.limit ?? PAGE_LIMIT_DEFAULT;
    const page = await this.store.page({ creatorUid: this.shared ? undefined : (caller.uid ?? ''), afterSeq, limit });
    const agents = page.records.map(toAgentIdentity);
    const { factory_uid: factoryUid } = query;
    return { agents: factoryUid === undefined ? agents : agents.filter((a) => a.factory_uid === factoryUid), page_info: pageInfo(page.nextSeq) };
  }

  /** Members given replace the stored ones; null clears one. */
  async update(uid: string, body: unknown, caller: RunCreatorInfo): Promise<AgentIdentity> {
    const existing = await this.getOrThrow(uid, caller);
    const parsed = UpdateAgentIdentityRequestSchema.safeParse(body ?? null);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const { name, ...changes } = parsed.data;
    const members: Record<string, unknown> = { ...existing.body };
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) delete members[key];
      else if (value !== undefined) members[key] = value;
    }
    await this.check(members);
    const record: NamedAgentRecord = { ...existing, name: name ?? existing.name, body: members, updatedAt: this.clock.now().toISOString() };
    if (!(await this.store.replace(record))) throw notFound(uid);
    return toAgentIdentity(record);
  }

  async delete(uid: string, caller: RunCreatorInfo): Promise<void> {
    await this.getOrThrow(uid, caller);
    if (!(await this.store.delete(uid))) throw notFound(uid);
  }

  private visible(identity: NamedAgentRecord, principal: string | undefined): boolean {
    return namedAgentVisible(identity, principal, this.shared);
  }

  /** Another principal's named agent is answered as missing. */
  private async getOrThrow(uid: string, caller: RunCreatorInfo): Promise<NamedAgentRecord> {
    const identity = await this.store.get(uid);
    if (!identity || !this.visible(identity, caller.uid)) throw notFound(uid);
    return identity;
  }

  /** An environment or skill the server does not know is refused now, not when a run names the agent. */
  private async check(members: Record<string, unknown>): Promise<void> {
    const envId = members.environment_id;
    if (typeof envId === 'string' && !this.environments.get(envId)) {
      throw this.environments.unknownEnvironment('environment_id', envId);
    }
    if (Array.isArray(members.skills)) await this.setup.checkSkills(members.skills as string[], 'skills');
    this.setup.checkWorkerHost(members.worker_host, 'worker_host');

  }
}

function notFound(uid: string): NotFoundError {
  return new NotFoundError(`No named agent with uid "${uid}".`);
}

function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}

function toAgentIdentity(record: NamedAgentRecord): AgentIdentity {
  const { skills, secrets, memory, default_runner_uid, ...rest } = record.body as {
    skills?: string[];
    secrets?: { name: string }[];
    memory?: { attached_stores?: AgentIdentity['memory']['attached_stores'] | null; auto_memory?: { enabled?: boolean } };
    default_runner_uid?: string;
  } & Record<string, unknown>;
  return {
    ...rest,
    uid: record.uid,
    name: record.name,
    available: true,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    default_runner_uid: default_runner_uid ?? '',
    skills: skills ?? [],
    secrets: secrets ?? [],
    memory: {
      attached_stores: memory?.attached_stores ?? [],
      auto_memory: { enabled: memory?.auto_memory?.enabled ?? false },
    },
  };
}
