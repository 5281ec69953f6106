import type { RunStore } from '../store/run-store.js';

const MAX_OUTPUT_CHARS = 256 * 1024;
const FLUSH_DELAY_MS = 200;

/** Collects an execution's output, keeps its tail, and writes it to the store in batches. */
export class OutputBuffer {
  private text: string;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: RunStore,
    private readonly runId: string,
    /** What earlier executions of the run printed: a follow-up's output is added after it. */
    earlier = '',
  ) {
    this.text = earlier;
  }

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > MAX_OUTPUT_CHARS) this.text = this.text.slice(-MAX_OUTPUT_CHARS);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    // If the store is closing the output is lost; it is a convenience, the run's state is what matters.
    this.store.setOutput(this.runId, this.text).catch(() => {});
  }
}
