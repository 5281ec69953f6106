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
import { runEventsRoute } from './run-events.js';
import { runOutputRoute } from './run-output.js';
import { sessionEventsRoute } from './session-events.js';
import { sessionLiveScriptRoute } from './session-live-script.js';
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
    runEventsRoute,
    runOutputRoute,
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
    sessionLiveScriptRoute,
    sessionPageRoute(executorName),
    sessionEventsRoute,
  ];
}
