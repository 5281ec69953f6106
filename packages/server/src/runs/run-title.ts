const MAX_TITLE = 80;
// A title reaches an environment variable, which cannot hold NUL. Other control characters
// are kept as the prompt has them: every adapter shows run text escaped.
const NUL = /\u0000+/g;

/** A title from the prompt's first line, or the skill's name, when the caller gave none. */
export function runTitle(prompt: string, skill: string | undefined): string {
  const line = prompt.split('\n').map((l) => l.replace(NUL, ' ').trim()).find(Boolean) ?? '';
  if (line) return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 3)}...` : line;
  return skill ? `Run skill ${skillName(skill).replace(NUL, ' ')}` : 'Untitled run';
}

/** `org/repo:skill` → `skill`; `org/repo:path/to/SKILL.md` → `to`. */
export function skillName(spec: string): string {
  const afterRepo = spec.includes(':') ? spec.slice(spec.lastIndexOf(':') + 1) : spec;
  const parts = afterRepo.split('/').filter(Boolean);
  const last = parts[parts.length - 1] ?? afterRepo;
  if (/^skill\.md$/i.test(last) && parts.length > 1) return parts[parts.length - 2]!;
  return last.replace(/\.md$/i, '');
}
