import type { TokenCount } from './usage-tally.js';

/** What an output line is of the agent's turn: its text, a tool call, or what the call gave back. */
export type TurnPart = 'text' | 'action' | 'result';

/** What a harness's stream says, line by line, in terms the executor acts on. */
export type HarnessEvent =
  /** Text for the run's output, ending in a newline; `part` says what of the turn it is, for the conversation. */
  | { kind: 'output'; text: string; part?: TurnPart }
  /** The harness's own session id, for a follow-up to resume. */
  | { kind: 'session'; id: string }
  /** One model response's usage so far. */
  | { kind: 'message-usage'; messageId: string; model: string; tokens: TokenCount }
  /** The harness's totals at the end of its turn. */
  | { kind: 'totals'; byModel: Map<string, { tokens: TokenCount; costUsd?: number; webSearches: number }>; totalUsd?: number }
  /** The turn's end: its answer, or its error. */
  | { kind: 'result'; text: string; isError: boolean };

/** Turns a harness's JSON lines into events; one per harness kind. */
export interface HarnessStreamParser {
  line(line: string): HarnessEvent[];
}
