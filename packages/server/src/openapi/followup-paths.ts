import { ArtifactResponseSchema, ConversationResponseSchema, HandoffAttachmentsResponseSchema, RunFollowupRequestSchema, RunFollowupResponseSchema } from '@agent-runs/core/contract';
import { json, problem, ref, schema, type JsonSchema } from './openapi-parts.js';

const runIdParam = { name: 'runId', in: 'path', required: true, schema: { type: 'string' } };
const errors = { '401': problem('Missing or unknown API key'), '404': problem('No such run') };

/** The paths of follow-ups, conversations, transcripts, handoff files and artifacts. */
export function followupPaths(): Record<string, unknown> {
  return {
    '/agent/runs/{runId}/followups': {
      post: {
        operationId: 'submitFollowup',
        summary: 'Send a run a follow-up, in any state: a queued run starts with it, a running one gets it in its inbox, an ended (or cancelled) one runs again',
        parameters: [runIdParam],
        requestBody: { required: true, content: json(ref('RunFollowupRequest')) },
        responses: { '200': { description: 'Taken', content: json(ref('RunFollowupResponse')) }, '400': problem('Invalid request'), ...errors },
      },
    },
    '/agent/runs/{runId}/conversation': {
      get: {
        operationId: 'getRunConversation',
        summary: "The run's normalised conversation: one step per execution",
        parameters: [runIdParam],
        responses: { '200': { description: 'The conversation', content: json(ref('ConversationResponse')) }, ...errors },
      },
    },
    '/agent/runs/{runId}/transcript': {
      get: {
        operationId: 'getRunTranscript',
        summary: 'A 302 to a short-lived download of the raw transcript (JSON lines)',
        parameters: [runIdParam],
        responses: { '302': { description: 'Redirect to the download', headers: { Location: { schema: { type: 'string' } } } }, ...errors },
      },
    },
    '/agent/runs/{runId}/handoff/attachments': {
      get: {
        operationId: 'listHandoffAttachments',
        summary: "Short-lived links to the files of the run's attachments directory",
        parameters: [runIdParam],
        responses: { '200': { description: 'The files', content: json(ref('HandoffAttachmentsResponse')) }, ...errors },
      },
    },
    '/agent/artifacts/{artifactUid}': {
      get: {
        operationId: 'getArtifact',
        summary: 'One plan, file or screenshot artifact; files and screenshots with a signed download_url that expires',
        parameters: [{ name: 'artifactUid', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The artifact', content: json(ref('ArtifactResponse')) }, '401': problem('Missing or unknown API key'), '404': problem('No such artifact') },
      },
    },
  };
}

export function followupSchemas(): Record<string, JsonSchema> {
  return {
    RunFollowupRequest: schema(RunFollowupRequestSchema, 'input'),
    RunFollowupResponse: schema(RunFollowupResponseSchema, 'output'),
    ConversationResponse: schema(ConversationResponseSchema, 'output'),
    HandoffAttachmentsResponse: schema(HandoffAttachmentsResponseSchema, 'output'),
    ArtifactResponse: schema(ArtifactResponseSchema, 'output'),
  };
}
