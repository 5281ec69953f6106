import { randomBytes } from 'node:crypto';
import * as core from '@actions/core';
import { visibleText, type RunOutputData } from '@agent-runs/core';

/** How many of the last lines the job summary shows. */
export const SUMMARY_OUTPUT_LINES = 20;
/** A partial line is logged once it grows past this, so a line without an end still appears. */
const MAX_PENDING_CHARS = 4096;

/**
 * The agent's output in the job log, as it comes: inside a collapsible group, with
 * workflow commands stopped (`::stop-commands::<random token>`) for as long as the group
 * is open, so nothing the agent prints (`::add-mask::`, `::error::`, `::endgroup::`) can
 * act on the runner. Control characters are shown escaped, one line in, one line out.
 * A state change closes the group (`pause`) so that its line shows outside; the next
 * output opens a new one. The last lines are kept for the job summary.
 */
export class AgentOutputLog {
  private token: string | undefined;
  private pending = '';
  private readonly last: string[] = [];

  /** A chunk of output. */
  write({ text }: Pick<RunOutputData, 'text'>): void {
    const parts = (this.pending + text).split('\n');
    this.pending = parts.pop()!;
    if (this.pending.length > MAX_PENDING_CHARS) {
      parts.push(this.pending);
      this.pending = '';
    }
    for (const line of parts) this.line(line.endsWith('\r') ? line.slice(0, -1) : line);
  }

  /** Closes the group (and starts workflow commands again) before the step logs something of its own. */
  pause(): void {
    if (this.token === undefined) return;
    core.info(`::${this.token}::`);
    this.token = undefined;
    core.endGroup();
  }

  /** Logs what is left without a line end and closes the group. */
  end(): void {
    if (this.pending) this.line(this.pending);
    this.pending = '';
    this.pause();
  }

  /** The last lines of output, control characters escaped (for the job summary). */
  get tail(): readonly string[] {
    return this.last;
  }

  private line(raw: string): void {
    const line = visibleText(raw);
    if (this.token === undefined) {
      core.startGroup('Agent output');
      this.token = randomBytes(16).toString('hex');
      core.info(`::stop-commands::${this.token}`);
    }
    core.info(line);
    this.last.push(line);
    if (this.last.length > SUMMARY_OUTPUT_LINES) this.last.shift();
  }
}
