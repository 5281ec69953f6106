/** A stream the command writes to; `isTTY` and `columns` decide how output looks. */
export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Where the command reads and writes: the process, or something a caller provides. */
export interface Io {
  /** Results: tables, summaries, JSON. */
  stdout: OutputStream;
  /** Progress, hints and errors. */
  stderr: OutputStream;
  env: Record<string, string | undefined>;
  /** Receives Ctrl-C; returns a function that stops listening. */
  onInterrupt(handler: () => void): () => void;
}

export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    onInterrupt(handler) {
      process.once('SIGINT', handler);
      return () => process.removeListener('SIGINT', handler);
    },
  };
}

/** Whether the stream is a terminal that can redraw a line. */
export function isInteractive(stream: OutputStream, env: Io['env']): boolean {
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}
