import { ConflictError } from '../domain/domain-errors.js';
import type { ServerClock } from '../domain/server-clock.js';
import type { RunService } from '../runs/run-service.js';
import type { ScheduleBody, ScheduleRecord, ScheduleStore } from '../store/schedules/schedule-store.js';
import { parseCron } from '@agent-runs/core/cron';
import { ScheduleLocks } from './schedule-locks.js';

/**
 * Firing schedules. Each tick fires at most once: a firing first leases its (schedule, tick)
 * record, and the run it creates carries an idempotency key made of the two, so a firing
 * whose server died, taken over once its lease ran out, cannot make a second run. Ticks missed while
 * the server was down or the schedule could not fire are caught up with one run, for the
 * latest of them.
 */
export class ScheduleFiring {
  constructor(
    private readonly store: ScheduleStore,
    private readonly runs: RunService,
    private readonly timeZone: string,
    private readonly clock: ServerClock,
    private readonly log: (line: string) => void,
    /** Shared with ScheduleService: a pause, update or delete waits for a firing under way. */
    private readonly locks = new ScheduleLocks(),
  ) {}

  /** Fires every schedule whose tick has come; one run per schedule, however many ticks were missed. */
  async fireDue(): Promise<void> {
    const now = this.clock.now();
    for (const due of await this.store.due(now.toISOString())) {
      try {
        await this.locks.with(due.id, async () => {
          // Read again under the lock: paused, deleted or edited since the list was read.
          const schedule = await this.store.get(due.id);
          if (schedule?.enabled && schedule.nextRun !== null && schedule.nextRun <= now.toISOString()) await this.fire(schedule, now);
        });
      } catch (error) {
        this.log(`Schedule ${due.id} could not fire: ${(error as Error).message}`);
      }
    }
  }

  private async fire(schedule: ScheduleRecord, now: Date): Promise<void> {
    const nowIso = now.toISOString();
    const check = parseCron(schedule.cronSchedule, this.timeZone);
    if (!check.ok) {
      // The server's time zone changed to one that cannot read it: say so and stop.
      await this.store.finishFiring(schedule.id, schedule.nextRun!, { runId: null, error: `cron_schedule: ${check.reason}` }, {
        lastRan: schedule.lastRan,
        nextRun: null,
      });
      return;
    }
    const tick = (check.cron.latestAtOrBefore(now) ?? new Date(schedule.nextRun!)).toISOString();
    const nextRun = check.cron.nextAfter(now)?.toISOString() ?? null;
    const claim = await this.store.claimFiring(schedule.id, tick, nowIso);
    // Paused or gone; or another server is firing it (if it died, its lease runs out and a firing then takes it over).
    if (claim.stopped || (!claim.claimed && !claim.earlier)) return;
    let result = claim.earlier;
    if (!result) {
      try {
        const created = await this.runs.create({
          body: runRequestOf(schedule.body),
          creator: schedule.creator,
          source: 'SCHEDULED_AGENT',
          idempotencyKey: `schedule:${schedule.id}:${tick}`,
          schedule: { schedule_id: schedule.id, schedule_name: schedule.name, cron_schedule: schedule.cronSchedule },
        });
        result = { runId: created.run_id, error: null };
      } catch (error) {
        // A conflict: this tick made its run before the schedule was edited; nothing more to do.
        result = error instanceof ConflictError ? { runId: null, error: null } : { runId: null, error: (error as Error).message };
      }
    }
    await this.store.finishFiring(schedule.id, tick, result, {
      lastRan: result.runId ? nowIso : schedule.lastRan,
      nextRun,
    });
    if (result.error) this.log(`Schedule ${schedule.id} could not start a run: ${result.error}`);
  }
}

/** The create body each firing sends through the same path as `POST /agent/runs`. */
function runRequestOf(body: ScheduleBody): Record<string, unknown> {
  return {
    prompt: body.prompt,
    config: body.agent_config,
    agent_identity_uid: body.agent_uid || undefined,
    metadata: body.metadata,
    mode: body.mode,
    team: body.team,
  };
}
