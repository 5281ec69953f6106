/** Longest line shown for a tool call, and for each line of its result. */
const MAX_LINE_CHARS = 300;
/** Lines of a tool's result shown under it. */
const MAX_RESULT_LINES = 5;

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim();
  return flat.length > MAX_LINE_CHARS ? `${flat.slice(0, MAX_LINE_CHARS - 1)}…` : flat;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/**
 * A tool call as one readable line: `$ npm test` for a shell command, `edit src/auth.ts` for
 * a change to a file, the tool's name and its first argument otherwise. Names differ per
 * harness (Bash, shell, run_shell_command; Write, write_file, apply_patch…).
 */
export function toolCallLine(name: string, input: Record<string, unknown>): string {
  const command = input['command'];
  const commandText = Array.isArray(command) ? command.map(String).join(' ') : str(command);
  const path = str(input['file_path']) ?? str(input['path']) ?? str(input['absolute_path']) ?? str(input['notebook_path']);
  const lower = name.toLowerCase();
  if (commandText && /bash|shell|exec|command/.test(lower)) return `$ ${oneLine(commandText)}`;
  if (path && /write|edit|replace|patch|notebook/.test(lower)) return `edit ${oneLine(path)}`;
  if (path && /read/.test(lower)) return `read ${oneLine(path)}`;
  const first = Object.values(input).find((v) => typeof v === 'string') as string | undefined;
  return oneLine(first ? `${name} ${first}` : name);
}

/** A tool's result under its call: a few lines, each bounded, indented. */
export function toolResultLines(result: string): string {
  const lines = result.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return '';
  const shown = lines.slice(0, MAX_RESULT_LINES).map((l) => `  ${oneLine(l)}`);
  if (lines.length > MAX_RESULT_LINES) shown.push(`  … ${lines.length - MAX_RESULT_LINES} more line(s)`);
  return `${shown.join('\n')}\n`;
}
