import { z } from 'zod';
import {
  ErrorBodySchema,
  ListRunsQuerySchema,
  ListRunsResponseSchema,
  RunAgentRequestSchema,
  RunAgentResponseSchema,
  RunItemSchema,
  SessionCheckRedirectResponseSchema,
  ConversationCheckRedirectResponseSchema,
  RunOutputDataSchema,
  RunOutputPageSchema,
  RunSkippedDataSchema,
} from '@agent-runs/core/contract';
import { VERSION } from '@agent-runs/core/contract';
import { followupPaths, followupSchemas } from './followup-paths.js';
import { webhookPaths, webhookSchemas } from './webhook-paths.js';

import { catalogOpenApi } from './catalog-openapi.js';
import { input, json, output, problem, ref, type JsonSchema } from './openapi-parts.js';


function listParameters(): unknown[] {
  return Object.entries(ListRunsQuerySchema.shape).map(([name, schema]) => {
    const described = input(schema as z.ZodType);
    const { description, ...rest } = described;
    return {
      name,
      in: 'query',
      required: false,
      description: description || undefined,
      schema: name === 'state' ? { type: 'array', items: (rest.items as JsonSchema) ?? rest } : rest,
      ...(name === 'state' ? { style: 'form', explode: true } : {}),
      // `metadata[team]=core&metadata[env]=ci`
      ...(name === 'metadata' ? { style: 'deepObject', explode: true } : {}),
    };
  });
}

/** The OpenAPI 3 document of this server, generated from the contract schemas. */
export function buildOpenApi(): JsonSchema {
  const catalog = catalogOpenApi({ input, output, ref, json, problem });
  const runIdParam = { name: 'runId', in: 'path', required: true, schema: { type: 'string' } };
  const errors = {
    '400': problem('Invalid request'),
    '401': problem('Missing or unknown API key'),
    '404': problem('No such run'),
  };
  const createRun = {
    operationId: 'createRun',
    summary: 'Create a run',
    description:
      'Metadata, mode, attachments (stored and given to the agent), conversation_id, parent_run_id, interactive and ' +
      'agent_identity_uid are stored with the run; metadata can be filtered on when listing. A parent_run_id or ' +
      'conversation_id the caller may not see is a 400. Without a prompt, a run takes its base prompt from its skills, ' +
      'or continues its conversation with the conversation’s last instruction.',
    parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } }],
    requestBody: { required: true, content: json(ref('RunAgentRequest')) },
    responses: {
      '200': { description: 'The run', content: json(ref('RunAgentResponse')) },
      '409': problem('Idempotency-Key reused with another body'),
      '413': problem('The body is larger than the server accepts'),
      ...errors,
    },
  };
  // Served without a key, as SDK 1.4 calls them: they answer only the mapped id.
  const redirect = (operationId: string, summary: string, param: string, schema: string) => ({
    get: {
      operationId,
      summary,
      security: [],
      parameters: [{ name: param, in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': { description: summary, content: json(ref(schema)) }, '404': problem('No such session or conversation') },
    },
  });
  return {
    openapi: '3.0.3',
    info: { title: 'Agent Runs API (local server)', version: VERSION },
    servers: [{ url: '/api/v1' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/agent/run': {
        post: { ...createRun, operationId: 'createRunAlias', summary: 'Create a run (the same as POST /agent/runs)' },
      },
      '/agent/runs': {
        post: createRun,
        get: {
          operationId: 'listRuns',
          summary: 'List runs, filtered and sorted, with keyset pagination',
          parameters: listParameters(),
          responses: { '200': { description: 'A page of runs', content: json(ref('ListRunsResponse')) }, ...errors },
        },
      },
      '/agent/runs/{runId}': {
        get: {
          operationId: 'getRun',
          summary: 'One run in full',
          parameters: [runIdParam],
          responses: { '200': { description: 'The run', content: json(ref('RunItem')) }, ...errors },
        },
      },
      '/agent/runs/{runId}/cancel': {
        post: {
          operationId: 'cancelRun',
          summary: 'Cancel a queued or running run',
          parameters: [runIdParam],
          responses: { '200': { description: 'The run id', content: json({ type: 'string' }) }, '409': problem('The run is PENDING'), ...errors },
        },
      },
      '/agent/runs/{runId}/events': {
        get: {
          operationId: 'streamRunEvents',
          summary: "The run's events as Server-Sent Events (an extension of this server)",
          description: [
            'Each event has an `id` that increases by one per run, an `event` name and JSON `data`:',
            '`run` (the whole RunItem, after every change), `output` (RunOutputData: the agent output in order),',
            '`artifact` and `followup` (from the features that add them), and `skipped` (RunSkippedData, without an id:',
            'output older than the per-run bound was dropped; it follows a `run` event, without an id, carrying the run as it is now).',
            'A comment line is sent at least every 15 s. Resume with the `Last-Event-ID` header (or `last_event_id`):',
            'nothing is lost or repeated while the output is within the bound. The stream ends after the terminal `run` event.',
          ].join(' '),
          'x-agent-runs-extension': true,
          parameters: [
            runIdParam,
            { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'integer', minimum: 0 } },
            { name: 'last_event_id', in: 'query', required: false, description: 'Used when the header is absent', schema: { type: 'integer', minimum: 0 } },
          ],
          responses: { '200': { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errors },
        },
      },
      '/agent/runs/{runId}/output': {
        get: {
          operationId: 'getRunOutput',
          summary: "The run's stored output after an event id, paged (an extension of this server)",
          'x-agent-runs-extension': true,
          parameters: [runIdParam, { name: 'since', in: 'query', required: false, description: 'An event id; 0 or absent for the start', schema: { type: 'integer', minimum: 0 } }],
          responses: { '200': { description: 'A page of output', content: json(ref('RunOutputPage')) }, ...errors },
        },
      },
      ...followupPaths(),
      '/agent/sessions/{sessionUuid}/redirect': redirect(
        'checkSessionRedirect',
        'The conversation a session belongs to',
        'sessionUuid',
        'SessionCheckRedirectResponse',
      ),
      '/agent/conversations/{conversationId}/redirect': redirect(
        'checkConversationRedirect',
        'The session of the newest run the conversation’s owner added',
        'conversationId',
        'ConversationCheckRedirectResponse',
      ),
      '/agent/conversations/{conversationId}': {
        get: {
          operationId: 'getConversation',
          summary: 'The conversation’s normalised messages across its runs the caller may read, one step per execution',
          parameters: [{ name: 'conversationId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'The conversation', content: json(ref('ConversationResponse')) },
            '401': problem('Missing or unknown API key'),
            '404': problem('No such conversation, or another principal’s'),
          },
        },
      },
      ...catalog.paths,
      ...webhookPaths(),
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: {
        ...catalog.schemas,
        RunAgentRequest: input(RunAgentRequestSchema),
        RunAgentResponse: output(RunAgentResponseSchema),
        RunItem: output(RunItemSchema),
        ListRunsResponse: output(ListRunsResponseSchema),
        SessionCheckRedirectResponse: output(SessionCheckRedirectResponseSchema),
        ConversationCheckRedirectResponse: output(ConversationCheckRedirectResponseSchema),
        Error: output(ErrorBodySchema),
        RunOutputPage: output(RunOutputPageSchema),
        RunOutputData: output(RunOutputDataSchema),
        RunSkippedData: output(RunSkippedDataSchema),
        ...followupSchemas(),
        ...webhookSchemas(),
      },
    },
  };
}
