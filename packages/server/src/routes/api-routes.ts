import { dashboardRoutes } from '../dashboard/dashboard-routes.js';
import type { AppRoute } from './app-context.js';
import { cancelRunRoute } from './cancel-run.js';
import { conversationRedirectRoute } from './conversation-redirect.js';
import { createRunRoute, createRunsRoute } from './create-run.js';
import { downloadArtifactRoute, downloadHandoffRoute, downloadTranscriptRoute } from './downloads.js';
import { getArtifactRoute } from './get-artifact.js';
import { getConversationRoute } from './get-conversation.js';
import { getConversationByIdRoute } from './get-conversation-by-id.js';
import { getTranscriptRoute } from './get-transcript.js';
import { handoffAttachmentsRoute } from './handoff-attachments.js';
import { submitFollowupRoute } from './submit-followup.js';
import { getRunRoute } from './get-run.js';
import { healthzRoute } from './healthz.js';
import { metricsRoute } from './metrics.js';
import { listRunsRoute } from './list-runs.js';
import { openapiRoute } from './openapi.js';
import { runEventsRoute } from './get-run-events.js';
import { runOutputRoute } from './run-output.js';
import { sessionEventsRoute } from './session-events.js';
import { sessionLiveScriptRoute } from './session-live-script.js';
import { sessionPageRoute } from './session-page.js';
import { sessionRedirectRoute } from './session-redirect.js';
import { createScheduleRoute } from './create-schedule.js';
import { deleteScheduleRoute } from './delete-schedule.js';
import { getScheduleRoute } from './get-schedule.js';
import { listSchedulesRoute } from './list-schedules.js';
import { pauseScheduleRoute } from './pause-schedule.js';
import { resumeScheduleRoute } from './resume-schedule.js';
import { updateScheduleRoute } from './update-schedule.js';
import { sendAgentMessageRoute } from './send-agent-message.js';
import { listAgentMessagesRoute } from './list-agent-messages.js';
import { readAgentMessageRoute } from './read-agent-message.js';
import { markAgentMessageDeliveredRoute } from './mark-agent-message-delivered.js';
import { pollAgentEventsRoute } from './poll-agent-events.js';
import { reportAgentEventRoute } from './report-agent-event.js';
import { createNamedAgentRoute } from './create-named-agent.js';
import { deleteNamedAgentRoute } from './delete-named-agent.js';
import { getNamedAgentRoute } from './get-named-agent.js';
import { listNamedAgentsRoute } from './list-named-agents.js';
import { updateNamedAgentRoute } from './update-named-agent.js';
import { listEnvironmentsRoute } from './list-environments.js';
import { getQuotaRoute } from './get-quota.js';
import { listSkillsRoute } from './list-skills.js';
import { webhookRoutes } from './webhook-routes.js';
import { listModelsRoute } from './list-models.js';
import { connectWorkerRoute } from './workers/connect-worker.js';
import { finishWorkerRunRoute } from './workers/finish-worker-run.js';
import { giveBackWorkerRunRoute } from './workers/give-back-worker-run.js';
import { listConnectedWorkersRoute } from './workers/list-connected-workers.js';
import { pollWorkerRoute } from './workers/poll-worker.js';
import { reportWorkerRunRoute } from './workers/report-worker-run.js';

/**
 * The API's routes and its signed downloads: each under `/api/v1/` carries its OpenAPI
 * operation, and the document is built from this list (a route of the API belongs here).
 */
const API_ROUTES: readonly AppRoute[] = [
  createRunRoute,
  createRunsRoute,
  listRunsRoute,
  getRunRoute,
  cancelRunRoute,
  sessionRedirectRoute,
  conversationRedirectRoute,
  getConversationByIdRoute,
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
  listSchedulesRoute,
  createScheduleRoute,
  getScheduleRoute,
  updateScheduleRoute,
  deleteScheduleRoute,
  pauseScheduleRoute,
  resumeScheduleRoute,
  listNamedAgentsRoute,
  createNamedAgentRoute,
  getNamedAgentRoute,
  updateNamedAgentRoute,
  deleteNamedAgentRoute,
  listEnvironmentsRoute,
  listSkillsRoute,
  ...webhookRoutes,
  listModelsRoute,
  sendAgentMessageRoute,
  listAgentMessagesRoute,
  readAgentMessageRoute,
  markAgentMessageDeliveredRoute,
  pollAgentEventsRoute,
  reportAgentEventRoute,
  getQuotaRoute,
  listConnectedWorkersRoute,
  connectWorkerRoute,
  pollWorkerRoute,
  reportWorkerRunRoute,
  finishWorkerRunRoute,
  giveBackWorkerRunRoute,
];

/** Built from the routes once per process, on the first request. */
const OPENAPI_ROUTE = openapiRoute(API_ROUTES);

/** Every route the server answers. */
export function apiRoutes(executorName: string, timeZone = 'UTC'): AppRoute[] {
  return [
    ...API_ROUTES,
    OPENAPI_ROUTE,
    healthzRoute,
    metricsRoute,
    sessionLiveScriptRoute,
    sessionPageRoute(executorName),
    sessionEventsRoute,
    ...dashboardRoutes({ timeZone }),
  ];
}
