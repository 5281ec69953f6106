import type { z } from 'zod';

// C0 controls, DEL and C1 controls: NUL ends a C string (an environment variable, an argv
// entry), CR and LF split a header or a log line, ESC drives a terminal.
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_BUT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** A value for one line (a title, a header, a variable's name, an id): no control character. */
export function singleLineText<T extends z.ZodString>(schema: T): T {
  return schema.refine((value) => !ANY_CONTROL.test(value), {
    message: 'must not contain control characters (such as NUL, a line break or ESC)',
  }) as T;
}

/** A value that may span lines (a base prompt, a variable's value): tab, CR and LF only. */
export function multiLineText<T extends z.ZodString>(schema: T): T {
  return schema.refine((value) => !CONTROL_BUT_WHITESPACE.test(value), {
    message: 'must not contain control characters other than tab and line breaks (such as NUL or ESC)',
  }) as T;
}
