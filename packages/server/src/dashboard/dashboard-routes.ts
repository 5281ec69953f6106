import type { AppRoute } from '../routes/app-context.js';
import { dashboardState, type DashboardOptions } from './dashboard-state.js';
import { scriptRoute, stylesheetRoute } from './routes/assets.js';
import { cancelRunRoute } from './routes/cancel-run.js';
import { createRunRoute } from './routes/create-run.js';
import { createScheduleRoute } from './routes/create-schedule.js';
import { editNamedAgentFormRoute } from './routes/edit-named-agent-form.js';
import { editScheduleFormRoute } from './routes/edit-schedule-form.js';
import { getRunRoute } from './routes/get-run.js';
import { listEnvironmentsRoute } from './routes/list-environments.js';
import { listNamedAgentsRoute } from './routes/list-named-agents.js';
import { listRunsRoute } from './routes/list-runs.js';
import { listSchedulesRoute } from './routes/list-schedules.js';
import { listSkillsRoute } from './routes/list-skills.js';
import { listWorkersRoute } from './routes/list-workers.js';
import { getQuotaPageRoute } from './routes/get-quota.js';
import { liveRunsRoute } from './routes/live-runs.js';
import { newRunFormRoute } from './routes/new-run-form.js';
import { newScheduleFormRoute } from './routes/new-schedule-form.js';
import { pauseScheduleRoute } from './routes/pause-schedule.js';
import { resumeScheduleRoute } from './routes/resume-schedule.js';
import { runAgainRoute } from './routes/run-again.js';
import { runEventsRoute } from './routes/run-events.js';
import { signInRoute } from './routes/sign-in.js';
import { signInFormRoute } from './routes/sign-in-form.js';
import { signOutRoute } from './routes/sign-out.js';
import { submitFollowupRoute } from './routes/submit-followup.js';
import { updateNamedAgentRoute } from './routes/update-named-agent.js';
import { updateScheduleRoute } from './routes/update-schedule.js';
import { signedInRoute, type SignedInRoute } from './signed-in-route.js';

/** The pages and forms for a signed-in browser: sign-out, runs, a run, start a run, schedules, the catalog, the connected workers. */
const SIGNED_IN_ROUTES: readonly SignedInRoute[] = [
  signOutRoute,
  listRunsRoute,
  liveRunsRoute,
  newRunFormRoute,
  createRunRoute,
  getRunRoute,
  runEventsRoute,
  cancelRunRoute,
  submitFollowupRoute,
  runAgainRoute,
  listSchedulesRoute,
  newScheduleFormRoute,
  editScheduleFormRoute,
  createScheduleRoute,
  updateScheduleRoute,
  pauseScheduleRoute,
  resumeScheduleRoute,
  listEnvironmentsRoute,
  listSkillsRoute,
  listNamedAgentsRoute,
  editNamedAgentFormRoute,
  updateNamedAgentRoute,
  listWorkersRoute,
  getQuotaPageRoute,
];

/** The dashboard at the server's root: its stylesheet and script, sign-in, then the signed-in routes, over one set of sessions. */
export function dashboardRoutes(options: DashboardOptions = {}): AppRoute[] {
  const state = dashboardState(options);
  return [
    stylesheetRoute,
    scriptRoute,
    signInFormRoute(state),
    signInRoute(state),
    ...SIGNED_IN_ROUTES.map((route) => signedInRoute(state, route)),
  ];
}
