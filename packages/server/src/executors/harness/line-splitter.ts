/** Longest line kept whole; a longer one is cut there (a harness's line is JSON of bounded size). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** Splits a stream of text into lines as they complete, bounded in what it holds. */
export class LineSplitter {
  private rest = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    let text = this.rest + chunk;
    let start = 0;
    let end: number;
    while ((end = text.indexOf('\n', start)) !== -1) {
      this.onLine(text.slice(start, end));
      start = end + 1;
    }
    text = text.slice(start);
    if (text.length > MAX_LINE_CHARS) {
      this.onLine(text.slice(0, MAX_LINE_CHARS));
      text = '';
    }
    this.rest = text;
  }

  end(): void {
    if (this.rest) this.onLine(this.rest);
    this.rest = '';
  }
}
