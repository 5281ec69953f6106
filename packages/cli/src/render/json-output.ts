import type { OutputStream } from '../io.js';

/**
 * What a terminal acts on or draws out of order that JSON.stringify leaves raw: C1
 * controls, bidi overrides and isolates, and the line and paragraph separators.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_TERMINAL = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** Machine-readable output: one JSON document, indented, on its own, with run text escaped as `\u…`. */
export function writeJson(stream: OutputStream, value: unknown): void {
  // These only occur inside JSON strings, where `\uXXXX` reads back as the same character.
  const text = JSON.stringify(value, null, 2).replace(UNSAFE_IN_TERMINAL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  stream.write(`${text}\n`);
}
