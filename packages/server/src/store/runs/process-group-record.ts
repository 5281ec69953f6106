/** The process group doing a run's work, kept so that a restart can end what a crash left running. */
export interface ProcessGroupRecord {
  pgid: number;
  /** The leader's start time (processStartTime), so a reused pid is not taken for it; null when unknown. */
  startTime: string | null;
}
