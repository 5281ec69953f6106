import type { RunChange, RunOutputData } from '@agent-runs/core';

/** Shows a run being followed, on stderr. */
export interface RunDisplay {
  /** Every change the follow reports. */
  update(change: RunChange): void;
  /** A permanent line of progress, such as the session link. */
  note(text: string): void;
  /** A chunk of the agent's output, as it comes. */
  output(chunk: RunOutputData): void;
  /** Removes anything transient (a live line) before results are printed. */
  stop(): void;
}

export const SILENT_DISPLAY: RunDisplay = { update() {}, note() {}, output() {}, stop() {} };
