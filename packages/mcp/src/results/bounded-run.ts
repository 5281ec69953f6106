import type { RunItem } from '@agent-runs/core';
import { runUri } from '../resources/run-resource.js';

/**
 * How long one text field of a run may be in a tool result: enough for an assistant to
 * read a prompt or a status message, small enough that a page of runs stays small.
 */
export const TOOL_FIELD_CHARS = 8_000;
/** In a list (up to 100 runs) each field gets less. */
export const LIST_FIELD_CHARS = 1_000;
/** The `agent-run://{run_id}` resource is where the full text is read, within one message. */
export const RESOURCE_FIELD_CHARS = 1_000_000;
/**
 * The largest JSON any one result or resource puts in a message. MCP clients hold a whole
 * message in memory, and some drop the connection on a very large one; this keeps every
 * message far below that, whatever the run holds.
 */
export const MAX_RESULT_JSON_CHARS = 2_000_000;

/** Where the full text can be read, for the marker at the end of a cut field. */
export type FullTextPointer = string;

/** `text`, cut to `max` characters with a visible marker that says how much is missing and where it is. */
export function truncateText(text: string, max: number, pointer: FullTextPointer): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n…[truncated: ${max} of ${text.length} characters shown; the full text is in ${pointer}]`;
}

/** Every string in `value` (any depth, any member, known or not) cut to `max` characters. */
function boundStrings(value: unknown, max: number, pointer: FullTextPointer): unknown {
  if (typeof value === 'string') return truncateText(value, max, pointer);
  if (Array.isArray(value)) return value.map((item) => boundStrings(item, max, pointer));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, boundStrings(item, max, pointer)]));
  }
  return value;
}

/**
 * Runs whose text fields (prompt, title, status message, base prompt, and any member a
 * server adds) are each at most `maxFieldChars`, cut with a marker that says where the
 * full text is. Identifiers stay whole: an assistant needs them exact. Should the JSON
 * still pass MAX_RESULT_JSON_CHARS (many fields, or text that JSON escapes six-fold), the
 * fields are cut harder until it fits.
 */
export function boundRuns(runs: readonly RunItem[], maxFieldChars: number, pointer: (run: RunItem) => FullTextPointer): RunItem[] {
  let max = maxFieldChars;
  for (;;) {
    const bounded = runs.map((run) => ({
      ...(boundStrings(run, max, pointer(run)) as RunItem),
      run_id: run.run_id,
      task_id: run.task_id,
    }));
    if (max <= 100 || JSON.stringify(bounded).length <= MAX_RESULT_JSON_CHARS) return bounded;
    max = Math.floor(max / 4);
  }
}

/** One run, bounded as boundRuns does. */
export function boundRun(run: RunItem, maxFieldChars: number, pointer: (run: RunItem) => FullTextPointer): RunItem {
  return boundRuns([run], maxFieldChars, pointer)[0]!;
}

/** In tool results and the recent list: the run's own resource holds the full text. */
export const inRunResource = (run: RunItem): FullTextPointer => runUri(run.run_id);

/** In the run's resource itself: the session page, or the API. */
export const onSessionPage = (run: RunItem): FullTextPointer =>
  run.session_link ? `the session page ${run.session_link}` : `GET /agent/runs/${run.run_id} of the Runs API`;
