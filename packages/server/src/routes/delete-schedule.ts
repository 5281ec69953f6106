import type { AppRoute } from './app-context.js';

/** `DELETE /agent/schedules/{scheduleId}`: the runs it started stay. */
export const deleteScheduleRoute: AppRoute = {
  method: 'DELETE',
  path: '/api/v1/agent/schedules/:scheduleId',
  auth: true,
  async handle({ params, app, caller }) {
    await app.schedules.delete(params.scheduleId!, caller);
    return { success: true };
  },
};
