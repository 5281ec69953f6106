/** One line of the benchmark table. */
export interface BenchRow {
  /** The package or area, e.g. `core`. */
  suite: string;
  /** What was measured, e.g. `5000 sequential runs.get`. */
  measure: string;
  /** The figure, with its unit. */
  value: string;
  /** The same figure for the baseline measured in the same run, with what the baseline is. */
  baseline?: string;
  /** value / baseline, e.g. `1.08x`. */
  ratio?: string;
  /** The target from the issue, e.g. `<= 0.9x`. */
  target: string;
  /** Whether the target was met; absent when the run could not tell (printed blank). */
  met?: boolean | undefined;
}
