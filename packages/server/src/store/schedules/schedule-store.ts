import type { AmbientAgentConfig, RunCreatorInfo } from '@agent-runs/core/contract';
import type { OwnedRecords } from '../owned-records.js';

/** What each firing of a schedule puts in its run. */
export interface ScheduleBody {
  prompt?: string;
  agent_config?: AmbientAgentConfig;
  agent_uid?: string;
  metadata?: Record<string, string>;
  mode?: string;
  team?: boolean;
}

export interface ScheduleRecord {
  id: string;
  name: string;
  cronSchedule: string;
  enabled: boolean;
  body: ScheduleBody;
  creator: RunCreatorInfo;
  createdAt: string;
  updatedAt: string;
  updatedBy: RunCreatorInfo;
  lastRan: string | null;
  /** The next tick to fire (RFC 3339); null while paused. */
  nextRun: string | null;
  lastSpawnError: string | null;
}

/** What a firing left: the run it created, or why it could not. */
export interface FiringResult {
  runId: string | null;
  error: string | null;
}

/** How long a firing is leased to the server firing it: far longer than a create takes. */
export const FIRING_LEASE_MS = 60_000;

/** Storage of schedules and of their firings (one record per schedule and tick). */
export interface ScheduleStore extends OwnedRecords<ScheduleRecord> {
  /** Deletes a schedule and its firings. */
  delete(id: string): Promise<boolean>;
  /** Enabled schedules whose next tick is at or before `now`. */
  due(now: string): Promise<ScheduleRecord[]>;
  /**
   * Claims the firing of `tick`, leased to this server for `leaseMs`: true the first time, and
   * again once a firing left unfinished (its server died) is taken over after its lease;
   * false while another holds it, or when it finished, with what that firing left. `stopped`
   * when the schedule is paused or gone, checked in the claim's transaction.
   */
  claimFiring(scheduleId: string, tick: string, at: string, leaseMs?: number): Promise<{ claimed: boolean; earlier?: FiringResult; stopped?: true }>;
  /** Records a firing's outcome (its lease let go) and moves the schedule to its next tick (none while paused), in one transaction. */
  finishFiring(scheduleId: string, tick: string, result: FiringResult, timing: { lastRan: string | null; nextRun: string | null }): Promise<void>;
}
