import type { Route } from '../http/route.js';
import { cancelRunRoute } from './cancel-run.js';
import { conversationRedirectRoute } from './conversation-redirect.js';
import { createRunRoute, createRunsRoute } from './create-run.js';
import { downloadArtifactRoute, downloadHandoffRoute, downloadTranscriptRoute } from './downloads.js';
import { getArtifactRoute } from './get-artifact.js';
import { getConversationRoute } from './get-conversation.js';
import { getTranscriptRoute } from './get-transcript.js';
import { handoffAttachmentsRoute } from './handoff-attachments.js';
import { submitFollowupRoute } from './submit-followup.js';
import { getRunRoute } from './get-run.js';
import { healthzRoute } from './healthz.js';
import { listRunsRoute } from './list-runs.js';
import { openapiRoute } from './openapi.js';
import { sessionPageRoute } from './session-page.js';
import { sessionRedirectRoute } from './session-redirect.js';

/** Every route the server answers. */
export function apiRoutes(executorName: string): Route[] {
  return [
    createRunRoute,
    createRunsRoute,
    listRunsRoute,
    getRunRoute,
    cancelRunRoute,
    sessionRedirectRoute,
    conversationRedirectRoute,
    submitFollowupRoute,
    getConversationRoute,
    getTranscriptRoute,
    handoffAttachmentsRoute,
    getArtifactRoute,
    downloadArtifactRoute,
    downloadTranscriptRoute,
    downloadHandoffRoute,
    openapiRoute,
    healthzRoute,
    sessionPageRoute(executorName),
  ];
}
