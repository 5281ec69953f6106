import {
  ListAgentSkillsQuerySchema,
  ListAgentSkillsResponseSchema,
  type ListAgentSkillsQuery,
  type ListAgentSkillsResponse,
} from '../contract/agent-skill.js';
import type { APIPromise } from '../internal/api-promise.js';
import type { RequestOptions } from '../internal/options.js';
import { guard, validate, type Send } from '../internal/resource-helpers.js';

/** `client.skills`: the skills a run can start from (`skill` names a variant's `id`). */
export class Skills {
  constructor(private readonly send: Send) {}

  /** `GET /agent`: `{ repo, sort_by: 'name' | 'last_run', refresh, include_malformed_skills }`, all optional. */
  list(query: ListAgentSkillsQuery = {}, options: RequestOptions = {}): APIPromise<ListAgentSkillsResponse> {
    return guard(() =>
      this.send({
        method: 'GET',
        path: '/agent',
        query: validate(ListAgentSkillsQuerySchema, query, 'skills query'),
        schema: ListAgentSkillsResponseSchema,
        ...options,
      }),
    );
  }
}
