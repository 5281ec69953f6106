/** Longest line kept whole; a longer one is cut there (a harness's line is JSON of bounded size). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

/**
 * Splits a stream of text into lines as they complete, bounded in what it holds. Each chunk
 * is searched once: the pieces of a line still open are kept apart and joined when it ends,
 * so a line spanning many chunks (a tool's long result) costs its length, not its length
 * times the number of chunks.
 */
export class LineSplitter {
  private pieces: string[] = [];
  private held = 0;

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    let start = 0;
    let end: number;
    while ((end = chunk.indexOf('\n', start)) !== -1) {
      const piece = chunk.slice(start, end);
      if (this.pieces.length === 0) this.onLine(piece);
      else {
        this.pieces.push(piece);
        this.emitHeld();
      }
      start = end + 1;
    }
    if (start < chunk.length) {
      this.pieces.push(start === 0 ? chunk : chunk.slice(start));
      this.held += chunk.length - start;
    }
    // An endless line: its first MAX_LINE_CHARS go out as a line, the rest held so far is dropped.
    if (this.held > MAX_LINE_CHARS) this.emitHeld();
  }

  end(): void {
    if (this.held > 0) this.emitHeld();
    this.pieces = [];
  }

  private emitHeld(): void {
    const line = this.pieces.join('');
    this.pieces = [];
    this.held = 0;
    this.onLine(line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line);
  }
}
