/** What the store knows of an environment's latest run. */
export interface LastRun {
  id: string;
  title: string;
  state: string;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
}

/** When environments and skills were last used, read from the stored runs. */
export interface CatalogActivity {
  lastRunInEnvironment(environmentId: string): Promise<LastRun | undefined>;
  /** Skill variant id → when a run last started from it. */
  lastRunOfSkills(): Promise<Map<string, string>>;
}
