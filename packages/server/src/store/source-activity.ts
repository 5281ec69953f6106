import type { LastRun } from '../sources/environment-registry.js';

/** When environments and skills were last used, read from the stored runs. */
export interface SourceActivity {
  lastRunInEnvironment(environmentId: string): Promise<LastRun | undefined>;
  /** Skill variant id → when a run last started from it. */
  lastRunOfSkills(): Promise<Map<string, string>>;
}
