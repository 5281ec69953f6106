import { isInteractive, type Io } from '../io.js';
import { paintFor } from '../render/colors.js';
import { LiveStatusLine } from '../render/live-status-line.js';
import { PlainStateLines } from '../render/plain-state-lines.js';
import { SILENT_DISPLAY, type RunDisplay } from '../render/run-display.js';

/**
 * A live line on a terminal, plain lines in a pipe; with --json and no terminal, nothing,
 * so that a script's stderr stays quiet.
 */
export function chooseDisplay(io: Io, runId: string, json: boolean): RunDisplay {
  if (isInteractive(io.stderr, io.env)) return new LiveStatusLine(io.stderr, paintFor(io.stderr, io.env), runId);
  return json ? SILENT_DISPLAY : new PlainStateLines(io.stderr);
}
