import { formatElapsed, formatSpend, isTerminalState, runDurationMs, visibleText, type RunItem, type RunOutputData, type RunUpdate } from '@agent-runs/core';
import type { OutputStream } from '../io.js';
import type { Paint } from './colors.js';
import { OutputLines } from './output-lines.js';

import type { RunDisplay } from './run-display.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK_MS = 100;
const CLEAR_LINE = '\r\x1b[2K';

/**
 * A single terminal line redrawn in place: spinner, state, elapsed time and title.
 * State changes also leave a permanent line above it, so the history stays readable,
 * and so does the agent's output, line by line, under the line of the last state.
 */
export class LiveStatusLine implements RunDisplay {
  private run: RunItem | undefined;
  private frame = 0;
  private stopped = false;
  private readonly started = Date.now();
  private readonly lines = new OutputLines();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly stream: OutputStream,
    private readonly paint: Paint,
    private readonly runId: string,
  ) {
    this.timer = setInterval(() => this.draw(), TICK_MS);
    // The spinner alone must never keep the process alive.
    this.timer.unref();
    this.draw();
  }

  update({ run, previous, stateChanged }: RunUpdate): void {
    this.run = run;
    if (isTerminalState(run.state)) this.writeLines(this.lines.flush());
    if (previous && stateChanged) {
      const elapsed = this.elapsed();
      const mark = isTerminalState(run.state) ? (run.state === 'SUCCEEDED' ? '✔' : '✖') : '•';
      this.stream.write(`${CLEAR_LINE}${mark} ${this.paint.state(visibleText(run.state))} ${this.paint.dim(`after ${elapsed}`)}\n`);
    } else if (!previous) {
      this.stream.write(`${CLEAR_LINE}• ${this.paint.state(visibleText(run.state))}\n`);
    }
    if (isTerminalState(run.state)) this.stop();
    else if (!this.stopped) this.draw();
  }

  note(text: string): void {
    this.stream.write(`${CLEAR_LINE}${visibleText(text)}\n`);
    if (!this.stopped) this.draw();
  }

  output(chunk: RunOutputData): void {
    this.writeLines(this.lines.push(chunk));
  }

  stop(): void {
    if (this.stopped) return;
    this.writeLines(this.lines.flush());
    this.stopped = true;
    clearInterval(this.timer);
    this.stream.write(CLEAR_LINE);
  }

  private writeLines(lines: string[]): void {
    if (lines.length === 0) return;
    const dim = lines.map((line) => `${CLEAR_LINE}${this.paint.dim('│')} ${line}\n`).join('');
    this.stream.write(dim);
    if (!this.stopped) this.draw();
  }

  /** Since the run started (or was created), once it is known; since the wait began before that. */
  private elapsed(): string {
    return formatElapsed((this.run && runDurationMs(this.run)) ?? Date.now() - this.started);
  }

  private draw(): void {
    const spinner = this.paint.cyan(FRAMES[this.frame++ % FRAMES.length]!);
    const state = this.run ? this.paint.state(visibleText(this.run.state)) : 'connecting';
    const elapsed = this.elapsed();
    const spend = formatSpend(this.run);
    const head = `${spinner} ${state} ${this.paint.dim(elapsed)}${spend ? ` ${this.paint.dim(`(${spend})`)}` : ''}  `;
    // The title comes from the server: shown with its control characters escaped, never interpreted.
    const title = visibleText(this.run?.title ?? this.runId);
    const room = (this.stream.columns || 80) - visibleLength(head) - 1;
    const shown = room <= 1 ? '' : title.length > room ? `${title.slice(0, room - 1)}…` : title;
    this.stream.write(`${CLEAR_LINE}${head}${this.paint.dim(shown)}`);
  }
}

function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, '').length;
}
