import { randomBytes } from 'node:crypto';
import * as core from '@actions/core';
import { visibleText } from '@agent-runs/core';

/**
 * Logs a line that holds text from the run (title, status message, agent output, anything
 * the server sent). The runner acts on any stdout line that starts with `::` (after
 * leading spaces) and on `##[` anywhere in a line, so such text could otherwise add a
 * mask, forge an error annotation or stop the log. Two layers: control characters are
 * shown escaped (one line in, one line out: no `\n::error::` can start a new line), and
 * the line sits between `::stop-commands::<token>` and `::<token>::`, with a token the
 * run cannot guess, so the runner treats whatever it says as plain text.
 */
export function logRunText(line: string): void {
  const token = randomBytes(16).toString('hex');
  core.info(`::stop-commands::${token}`);
  core.info(visibleText(line));
  core.info(`::${token}::`);
}

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Markdown that works inside a line: code, emphasis, links and images, strikethrough,
 * table cells, maths, backslash escapes. A character reference stands for the character
 * without acting as markup (CommonMark 6.2), in markdown and in HTML alike.
 */
const MARKUP = /[&<>"'\\`*_[\]!~|$]/g;

const reference = (char: string) => HTML[char] ?? `&#${char.charCodeAt(0)};`;

/** MARKUP, a mention's `@`, and the `#` or `GH-` of an issue reference (GitHub links them in rendered text, so character references would not do). */
const MARKUP_OR_REFERENCE = new RegExp(`${MARKUP.source}|@|#(?=\\d)|(?<=\\bGH)-(?=\\d)`, 'g');

/**
 * Longest run text put in one place of the summary or comment: a comment holds at most
 * 65,536 characters and a step's summary 1 MiB, and escaping can make text several times
 * longer. The `status-message` and `run` outputs keep the whole text.
 */
export const MAX_RUN_TEXT_CHARS = 2_000;

/**
 * Text from the run, made safe for the job summary and the pull-request comment (GitHub
 * markdown with HTML): HTML and markdown shown as typed, never rendered; `@someone` and
 * `@org/team` shown without notifying anyone (a zero-width space after the `@`, as
 * GitHub's own bots write mentions they quote), and `#1`, `owner/repo#2` and `GH-3` likewise not
 * turned into references (which link and notify the issue referred to); line breaks as `<br>`, so the text cannot
 * end a table or an HTML block; other control characters shown escaped; past
 * MAX_RUN_TEXT_CHARS, cut with a note of how much is missing.
 */
export function escapeRunText(text: string, maxChars = MAX_RUN_TEXT_CHARS): string {
  const cut = text.length > maxChars;
  const shown = cut ? text.slice(0, maxChars) : text;
  const note = cut ? ` … (${text.length - maxChars} more characters)` : '';
  return `${shown
    .split(/\r\n|\r|\n/)
    .map((line) => visibleText(line).replace(MARKUP_OR_REFERENCE, (c) => (c === '@' || c === '#' || c === '-' ? `${c}&#8203;` : reference(c))))
    .join('<br>')}${note}`;
}

/** An `<a>` to the run's page if it is an http(s) address; otherwise the escaped text alone. */
export function runLinkHtml(url: string): string {
  let safe = false;
  try {
    const parsed = new URL(url);
    safe = (parsed.protocol === 'https:' || parsed.protocol === 'http:') && !/[\s<>"']/.test(url);
  } catch {
    safe = false;
  }
  const text = escapeRunText(url);
  // The address itself keeps its `#1` fragment as typed; only the text shown is neutralised.
  return safe ? `<a href="${url.replace(MARKUP, reference)}">${text}</a>` : text;
}
