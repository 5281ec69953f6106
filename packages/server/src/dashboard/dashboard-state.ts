import type { AppContext } from '../routes/app-context.js';
import { DashboardSessions, DEFAULT_SESSION_LIMITS, type SessionLimits } from './dashboard-sessions.js';
import { LiveRunViews } from './live-run-views.js';
import { SignInAttempts } from './sign-in-attempts.js';

export interface DashboardOptions {
  timeZone?: string;
  sessions?: SessionLimits;
  /** How often the live runs table is read. */
  liveIntervalMs?: number;
}

/** What the dashboard's routes share for the server's life. */
export interface DashboardState {
  sessions: DashboardSessions;
  /** The bounds `sessions` keeps: sign-in names the most and sets the cookie's age from them. */
  limits: SessionLimits;
  /** Wrong keys per client address. */
  attempts: SignInAttempts;
  /** The zone a schedule's cron is read in. */
  timeZone: string;
  /** The live runs views, made on the first request that needs them: they read the app's services. */
  liveViews(app: AppContext): LiveRunViews;
}

export function dashboardState(options: DashboardOptions = {}): DashboardState {
  const limits = options.sessions ?? DEFAULT_SESSION_LIMITS;
  let live: LiveRunViews | undefined;
  return {
    sessions: new DashboardSessions(limits),
    limits,
    attempts: new SignInAttempts(),
    timeZone: options.timeZone ?? 'UTC',
    liveViews: (app) => (live ??= new LiveRunViews(app.reads, app.heartbeat, options.liveIntervalMs, undefined, app.events.streams, app.runs.sharedRuns)),
  };
}
