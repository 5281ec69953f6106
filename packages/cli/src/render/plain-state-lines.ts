import { formatElapsed, formatSpend, runDurationMs, visibleText, type RunChange, type RunOutputData } from '@agent-runs/core';
import type { OutputStream } from '../io.js';
import { OutputLines } from './output-lines.js';

import type { RunDisplay } from './run-display.js';

/**
 * One line per change of state or status message, for logs and pipes where a redrawn
 * line would be noise: `run 8c1f…: INPROGRESS (2s)`. The agent's output comes as lines
 * prefixed `agent> `, so a reader (or a grep) tells it from the command's own lines.
 */
export class PlainStateLines implements RunDisplay {
  private readonly lines = new OutputLines();

  constructor(private readonly stream: OutputStream) {}

  output(chunk: RunOutputData): void {
    for (const line of this.lines.push(chunk)) this.stream.write(`agent> ${line}\n`);
  }

  update({ run, statusChanged, elapsedMs }: RunChange): void {
    for (const line of this.lines.flush()) this.stream.write(`agent> ${line}\n`);
    if (!statusChanged) return;
    const message = run.status_message?.message;
    const note = message ? `: ${message}` : '';
    // The run's own age, not how long this command has watched it.
    const age = formatElapsed(runDurationMs(run) ?? elapsedMs);
    const spend = formatSpend(run);
    this.stream.write(`${visibleText(`run ${run.run_id}: ${run.state} (${age}${spend ? `, ${spend}` : ''})${note}`)}\n`);
  }

  note(text: string): void {
    this.stream.write(`${visibleText(text)}\n`);
  }

  stop(): void {
    for (const line of this.lines.flush()) this.stream.write(`agent> ${line}\n`);
  }
}
