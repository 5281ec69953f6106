import type { OutputStream } from '../io.js';

/** Machine-readable output: one JSON document, indented, on its own. */
export function writeJson(stream: OutputStream, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}
