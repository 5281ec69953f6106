import { InvalidInputError } from '../domain/domain-errors.js';
import type { DashboardRequest } from './signed-in-route.js';
import { page, seeOther } from './page-reply.js';
import { scheduleFormPage, scheduleValuesOf } from './schedules-page.js';

/**
 * A posted schedule form (a new schedule's, or the schedule `id`'s): "check" shows it again
 * with the cron's next firings; else `save`, and a schedule the service refuses is shown
 * on the form, filled in as it was sent.
 */
export async function saveSchedule({ form, session, dashboard }: DashboardRequest, id: string | undefined, save: () => Promise<unknown>) {
  const values = scheduleValuesOf(form);
  if (form.get('intent') === 'check') return page(scheduleFormPage(session, values, { id }, dashboard.timeZone));
  try {
    await save();
    return seeOther('/schedules');
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return page(scheduleFormPage(session, values, { id }, dashboard.timeZone, error.message), 400);
  }
}
