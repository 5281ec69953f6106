/** What the store knows of an environment's latest run. */
export interface LastRun {
  id: string;
  title: string;
  state: string;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
}

/**
 * When environments and skills were last used, read from the stored runs. `creatorUid`
 * narrows to the runs of one principal (what a caller without shared runs may see);
 * undefined reads every principal's.
 */
export interface CatalogActivity {
  lastRunInEnvironment(environmentId: string, creatorUid?: string): Promise<LastRun | undefined>;
  /** Skill variant id → when a run last started from it. */
  lastRunOfSkills(creatorUid?: string): Promise<Map<string, string>>;
}
