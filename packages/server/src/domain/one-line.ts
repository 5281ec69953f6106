/**
 * Characters a terminal, a log viewer or a forge's page acts on instead of showing: C0 and C1
 * controls, DEL, line and paragraph separators, bidirectional marks and overrides. Text from a
 * run (its title, its agent's words, what git repeats of its patch) can carry them to forge or
 * hide a line.
 */
const INVISIBLE = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const EACH = new RegExp(`[${INVISIBLE}]`, 'g');
const RUNS = new RegExp(`[${INVISIBLE}]+`, 'g');

/** Text from a run or a server as one plain line: those characters removed. */
export const plainText = (text: string): string => text.replace(EACH, '');

/** Text from a run as one line among others (a commit subject, a complaint quoted): each run of those characters a space, trimmed, at most `max` characters. */
export function oneLine(text: string, max: number): string {
  return text.replace(RUNS, ' ').trim().slice(0, max);
}
