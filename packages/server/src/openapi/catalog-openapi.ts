import type { z } from 'zod';
import {
  AgentIdentitySchema,
  CreateAgentIdentityRequestSchema,
  ListAgentIdentitiesQuerySchema,
  ListAgentIdentitiesResponseSchema,
  ListAgentSkillsQuerySchema,
  ListAgentSkillsResponseSchema,
  ListEnvironmentsQuerySchema,
  ListEnvironmentsResponseSchema,
  ListSchedulesQuerySchema,
  ListModelsResponseSchema,
  ListSchedulesResponseSchema,
  ScheduleCreateRequestSchema,
  ScheduleDeleteResponseSchema,
  ScheduledAgentItemSchema,
  ScheduleUpdateRequestSchema,
  UpdateAgentIdentityRequestSchema,
} from '@agent-runs/core/contract';

type JsonSchema = Record<string, unknown>;

/** The document builder's helpers, so both halves describe schemas the same way. */
export interface OpenApiHelpers {
  input(schema: z.ZodType): JsonSchema;
  output(schema: z.ZodType): JsonSchema;
  ref(name: string): unknown;
  json(schema: unknown): unknown;
  problem(description: string): unknown;
}

/** Paths and schemas of what runs start from: schedules, environments, skills, named agents. */
export function catalogOpenApi({ input, output, ref, json, problem }: OpenApiHelpers): { paths: JsonSchema; schemas: JsonSchema } {
  const errors = { '400': problem('Invalid request'), '401': problem('Missing or unknown API key') };
  const notFound = { '404': problem('No such schedule or named agent') };
  const path = (name: string) => [{ name, in: 'path', required: true, schema: { type: 'string' } }];
  const query = (schema: z.ZodObject) =>
    Object.entries(schema.shape).map(([name, s]) => ({ name, in: 'query', required: false, schema: input(s as z.ZodType) }));
  const ok = (description: string, name: string) => ({ '200': { description, content: json(ref(name)) } });
  // A create answers 201, as the published contract has it.
  const created = (description: string, name: string) => ({ '201': { description, content: json(ref(name)) } });
  const schedule = ok('The schedule', 'ScheduledAgentItem');
  const identity = ok('The named agent', 'AgentIdentity');
  return {
    paths: {
      '/agent/schedules': {
        get: {
          operationId: 'listSchedules',
          summary: 'A page of the caller’s schedules, oldest first',
          parameters: query(ListSchedulesQuerySchema),
          responses: { ...ok('The schedules', 'ListSchedulesResponse'), ...errors },
        },
        post: {
          operationId: 'createSchedule',
          summary: 'A schedule that starts a run at each tick of a 5-field cron expression',
          requestBody: { required: true, content: json(ref('ScheduleCreateRequest')) },
          responses: { ...created('The schedule', 'ScheduledAgentItem'), ...errors },
        },
      },
      '/agent/schedules/{scheduleId}': {
        get: { operationId: 'getSchedule', parameters: path('scheduleId'), responses: { ...schedule, ...errors, ...notFound } },
        put: {
          operationId: 'updateSchedule',
          summary: 'Replace a schedule',
          parameters: path('scheduleId'),
          requestBody: { required: true, content: json(ref('ScheduleUpdateRequest')) },
          responses: { ...schedule, ...errors, ...notFound },
        },
        delete: { operationId: 'deleteSchedule', parameters: path('scheduleId'), responses: { ...ok('Deleted', 'ScheduleDeleteResponse'), ...errors, ...notFound } },
      },
      '/agent/schedules/{scheduleId}/pause': {
        post: { operationId: 'pauseSchedule', parameters: path('scheduleId'), responses: { ...schedule, ...errors, ...notFound } },
      },
      '/agent/schedules/{scheduleId}/resume': {
        post: { operationId: 'resumeSchedule', parameters: path('scheduleId'), responses: { ...schedule, ...errors, ...notFound } },
      },
      '/agent/models': {
        get: {
          operationId: 'listModels',
          summary: 'The models of the harnesses this server can run (disable_reason on those it cannot)',
          responses: { ...ok('The models', 'ListModelsResponse'), ...errors },
        },
      },
      '/agent/environments': {
        get: {
          operationId: 'listEnvironments',
          summary: 'The environments the server configuration declares',
          parameters: query(ListEnvironmentsQuerySchema),
          responses: { ...ok('The environments', 'ListEnvironmentsResponse'), ...errors },
        },
      },
      '/agent': {
        get: {
          operationId: 'listSkills',
          summary: 'The skills (SKILL.md files) the server found',
          parameters: query(ListAgentSkillsQuerySchema),
          responses: { ...ok('The skills', 'ListAgentSkillsResponse'), ...errors },
        },
      },
      '/agent/identities': {
        get: {
          operationId: 'listIdentities',
          summary: 'A page of the caller’s named agents, oldest first',
          parameters: query(ListAgentIdentitiesQuerySchema),
          responses: { ...ok('The named agents', 'ListAgentIdentitiesResponse'), ...errors },
        },
        post: {
          operationId: 'createIdentity',
          requestBody: { required: true, content: json(ref('CreateAgentIdentityRequest')) },
          responses: { ...created('The named agent', 'AgentIdentity'), ...errors },
        },
      },
      '/agent/identities/{uid}': {
        get: { operationId: 'getIdentity', parameters: path('uid'), responses: { ...identity, ...errors, ...notFound } },
        put: {
          operationId: 'updateIdentity',
          parameters: path('uid'),
          requestBody: { required: true, content: json(ref('UpdateAgentIdentityRequest')) },
          responses: { ...identity, ...errors, ...notFound },
        },
        delete: { operationId: 'deleteIdentity', parameters: path('uid'), responses: { '204': { description: 'Deleted' }, ...errors, ...notFound } },
      },
    },
    schemas: {
      ScheduleCreateRequest: input(ScheduleCreateRequestSchema),
      ScheduleUpdateRequest: input(ScheduleUpdateRequestSchema),
      ScheduledAgentItem: output(ScheduledAgentItemSchema),
      ListSchedulesResponse: output(ListSchedulesResponseSchema),
      ScheduleDeleteResponse: output(ScheduleDeleteResponseSchema),
      ListEnvironmentsResponse: output(ListEnvironmentsResponseSchema),
      ListModelsResponse: output(ListModelsResponseSchema),
      ListAgentSkillsResponse: output(ListAgentSkillsResponseSchema),
      CreateAgentIdentityRequest: input(CreateAgentIdentityRequestSchema),
      UpdateAgentIdentityRequest: input(UpdateAgentIdentityRequestSchema),
      AgentIdentity: output(AgentIdentitySchema),
      ListAgentIdentitiesResponse: output(ListAgentIdentitiesResponseSchema),
    },
  };
}
