/**
 * Characters a terminal (or a log viewer) would act on instead of showing: C0 controls
 * (ESC starts colour, cursor, clear-screen, window-title and OSC 8 link sequences; CR
 * overwrites a line; LF forges a new one), DEL, the C1 controls (0x9b is a one-byte CSI),
 * and the Unicode line separators and bidirectional overrides that reorder what is shown.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const INVISIBLE_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

function escapeCharacter(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export interface VisibleTextOptions {
  /**
   * Keep line feeds as line breaks (for a multi-line field such as a prompt shown on its
   * own). A carriage return is still escaped, so no line can overwrite or forge another.
   */
  multiline?: boolean | undefined;
}

/**
 * Text from a run (title, prompt, status message, agent output), made safe to print: every
 * control character, escape sequence introducer and invisible reordering mark is shown
 * escaped (`\e`, `\r`, `\n`, `\x07`, `\u202e`), never interpreted. Printable text, including
 * any non-Latin script, is left as it is.
 */
export function visibleText(text: string, options: VisibleTextOptions = {}): string {
  return text.replace(options.multiline ? INVISIBLE_EXCEPT_NEWLINE : INVISIBLE, escapeCharacter);
}
