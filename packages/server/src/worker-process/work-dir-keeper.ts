import { readdirSync, statSync, utimesSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { protocolDir } from '../executors/agent-protocol.js';
import { runWorkDir } from '../executors/run-work-dir.js';

/** A run's working directory is named by its id (a UUID); nothing else under the work root is ever removed. */
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The working directories of ended runs a worker keeps for their follow-ups, at most `keep`,
 * the most recently ended: beyond that the oldest are removed with their protocol files
 * (`<work root>/.agent-runs/<run id>`). A follow-up to a run whose directory went is not
 * lost: the worker makes it again from the environment's checkout and the run's patches.
 */
export class WorkDirKeeper {
  private pruning: Promise<void> = Promise.resolve();

  constructor(
    private readonly root: string,
    private readonly keep: number,
    private readonly log: (line: string) => void,
  ) {}

  /** A run ended here: it becomes the newest kept, and the oldest beyond the bound go (never one `inFlight` names as it goes). */
  ended(runId: string, inFlight: () => ReadonlySet<string>): Promise<void> {
    const now = new Date();
    try {
      // Its directory's time is when it ended: the order in which they are let go, across restarts too.
      utimesSync(runWorkDir(this.root, runId), now, now);
    } catch {
      // Never made (the run failed before), or removed already.
    }
    this.pruning = this.pruning.then(() => this.prune(inFlight));
    return this.pruning;
  }

  private async prune(inFlight: () => ReadonlySet<string>): Promise<void> {
    let names: string[];
    try {
      const running = inFlight();
      names = readdirSync(this.root).filter((name) => RUN_ID.test(name) && !running.has(name));
    } catch {
      return;
    }
    if (names.length <= this.keep) return;
    const byEnd = names
      .map((name) => ({ name, at: statSync(runWorkDir(this.root, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
      .sort((a, b) => b.at - a.at);
    for (const { name } of byEnd.slice(this.keep)) {
      // A follow-up may have brought one of them back meanwhile.
      if (inFlight().has(name)) continue;
      try {
        // Its protocol files first: a run whose directory is gone has nothing left behind.
        await rm(protocolDir(this.root, name), { recursive: true, force: true });
        await rm(runWorkDir(this.root, name), { recursive: true, force: true });
      } catch (error) {
        this.log(`Could not remove the working directory of ended run ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    }
  }
}
