import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * A run handed to the dispatch command: what a restarted worker needs to follow it again (no
 * secret: its token is made again from the worker token), and the budget it holds it to,
 * sealed (`sealed-budget.ts`); a note of an earlier version has none.
 */
const DispatchedSchema = z.strictObject({
  run_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  claim: z.string().min(1).max(64),
  execution: z.number().int().min(1),
  budget: z.string().max(1_000).optional(),
  budget_seal: z.string().max(100).optional(),
});
export type Dispatched = z.output<typeof DispatchedSchema>;

/**
 * The runs this worker dispatched and that have not ended here, one small file each under
 * its work directory: a scheduler elsewhere keeps no list this worker could read back, as a
 * cluster's Jobs are, so the worker keeps its own, to follow them again after a restart.
 */
export class DispatchedRuns {
  private readonly dir: string;

  constructor(workDir: string) {
    this.dir = join(workDir, 'dispatched');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Noted before the dispatch command runs: a restart in between follows it rather than losing it. */
  note(run: Dispatched): void {
    const file = this.file(run.run_id);
    writeFileSync(`${file}.tmp`, JSON.stringify(run), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }

  forget(runId: string): void {
    rmSync(this.file(runId), { force: true });
  }

  /** Every run noted and not forgotten; a file that is not one (cut short, edited) is skipped and said. */
  list(log: (line: string) => void): Dispatched[] {
    const found: Dispatched[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.json')) continue;
      try {
        const parsed = DispatchedSchema.safeParse(JSON.parse(readFileSync(join(this.dir, name), 'utf8')));
        if (parsed.success && `${parsed.data.run_id}.json` === name) found.push(parsed.data);
        else log(`Skipping ${join(this.dir, name)}: not a dispatched run's record.`);
      } catch {
        log(`Skipping ${join(this.dir, name)}: not readable as JSON.`);
      }
    }
    return found;
  }

  private file(runId: string): string {
    return join(this.dir, `${runId}.json`);
  }
}
