import { z } from 'zod';
import {
  AgentIdentitySchema,
  CreateAgentIdentityRequestSchema,
  ListAgentIdentitiesQuerySchema,
  ListAgentIdentitiesResponseSchema,
  UpdateAgentIdentityRequestSchema,
  type AgentIdentity,
  type CreateAgentIdentityRequest,
  type ListAgentIdentitiesQuery,
  type ListAgentIdentitiesResponse,
  type UpdateAgentIdentityRequest,
} from '../contract/agent-identity.js';
import type { APIPromise } from '../internal/api-promise.js';
import { ListPromise } from '../internal/list-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, pathSegment, validate, type Send } from '../internal/resource-helpers.js';

const agentPath = (uid: string) => `/agent/identities/${pathSegment('uid', uid)}`;
// A delete answers 204 with no body.
const NoContentSchema = z.undefined().transform((): void => undefined);

/** `client.agents`: named agents (`agent_identity_uid` on create names one by `uid`). */
export class Agents {
  constructor(private readonly send: Send) {}

  /** `POST /agent/identities`: `{ name, prompt, skills, mcp_servers, environment_id, ... }`; not retried once sent. */
  create(body: CreateAgentIdentityRequest, options: RequestOptions = {}): APIPromise<AgentIdentity> {
    return guard(() =>
      this.send({
        method: 'POST',
        path: '/agent/identities',
        body: validate(CreateAgentIdentityRequestSchema, body, 'named agent'),
        schema: AgentIdentitySchema,
        ...options,
      }),
    );
  }

  /** `GET /agent/identities/{uid}`. */
  get(uid: string, options: RequestOptions = {}): APIPromise<AgentIdentity> {
    return guard(() => this.send({ method: 'GET', path: agentPath(uid), schema: AgentIdentitySchema, ...options }));
  }

  /** `PUT /agent/identities/{uid}`: members given replace, `null` clears one. */
  update(uid: string, body: UpdateAgentIdentityRequest, options: RequestOptions = {}): APIPromise<AgentIdentity> {
    return guard(() =>
      this.send({
        method: 'PUT',
        path: agentPath(uid),
        body: validate(UpdateAgentIdentityRequestSchema, body, 'named agent'),
        schema: AgentIdentitySchema,
        ...options,
      }),
    );
  }

  /**
   * `GET /agent/identities`, optionally `{ factory_uid }`: a page of the caller's named agents,
   * oldest first. Await it for the first page, or `for await (const agent of client.agents.list())` for every one.
   */
  list(query: ListAgentIdentitiesQuery = {}, options: RequestOptions = {}): ListPromise<ListAgentIdentitiesResponse, AgentIdentity> {
    let valid: z.output<typeof ListAgentIdentitiesQuerySchema> = {};
    const fetchPage = (q: typeof valid) =>
      this.send({ method: 'GET', path: '/agent/identities', query: q, schema: ListAgentIdentitiesResponseSchema, ...options });
    return new ListPromise(
      () => fetchPage((valid = validate(ListAgentIdentitiesQuerySchema, query, 'named agents query'))),
      (body) => body.agents,
      (cursor) => fetchPage({ ...valid, cursor }),
    );
  }

  /** `DELETE /agent/identities/{uid}`. */
  delete(uid: string, options: RequestOptions = {}): APIPromise<void> {
    return guard(() => this.send({ method: 'DELETE', path: agentPath(uid), schema: NoContentSchema, ...options }));
  }
}

/** @deprecated Renamed {@link Agents} (named agents); this alias goes in the next release. */
export const Identities = Agents;
/** @deprecated Renamed {@link Agents} (named agents); this alias goes in the next release. */
export type Identities = Agents;
