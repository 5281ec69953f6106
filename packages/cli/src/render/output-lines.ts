import { visibleText, type RunOutputData } from '@agent-runs/core';

/** A partial line is shown once it grows past this, so a line without an end still appears. */
const MAX_PENDING_CHARS = 4096;

/**
 * Splits the agent's output into whole lines, per stream, each made safe to print: control
 * characters and escape sequences shown escaped (`\e[2J`), never acted on by the terminal.
 */
export class OutputLines {
  private readonly pending = new Map<string, string>();

  /** The complete lines in this chunk (and what it completes), without their line ends. */
  push({ stream, text }: Pick<RunOutputData, 'stream' | 'text'>): string[] {
    const all = (this.pending.get(stream) ?? '') + text;
    const parts = all.split('\n');
    let rest = parts.pop()!;
    if (rest.length > MAX_PENDING_CHARS) {
      parts.push(rest);
      rest = '';
    }
    this.pending.set(stream, rest);
    return parts.map((line) => visibleText(line.endsWith('\r') ? line.slice(0, -1) : line));
  }

  /** What is left without a line end, as lines (at the end of the run). */
  flush(): string[] {
    const rest = [...this.pending.values()].filter(Boolean).map((line) => visibleText(line));
    this.pending.clear();
    return rest;
  }
}
