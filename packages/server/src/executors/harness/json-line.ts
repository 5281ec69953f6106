import type { HarnessEvent } from './harness-event.js';

/** One parsed line of a harness's JSON stream, read leniently: a CLI's fields are never trusted to be there. */
export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * A stream line as an object, or, for a line that is not JSON (a warning the CLI printed),
 * the output event that shows it as it is (none for a blank line).
 */
export function jsonLine(line: string): Json | HarnessEvent[] {
  try {
    return obj(JSON.parse(line));
  } catch {
    return line.trim() ? [{ kind: 'output', text: `${line}\n` }] : [];
  }
}
