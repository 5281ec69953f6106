const MAX_TITLE = 80;
// A title reaches an environment variable and page titles: no control character survives.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

/** A title from the prompt's first line, or the skill's name, when the caller gave none. */
export function runTitle(prompt: string, skill: string | undefined): string {
  const line = prompt.split('\n').map((l) => l.replace(CONTROL, ' ').trim()).find(Boolean) ?? '';
  if (line) return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 3)}...` : line;
  return skill ? `Run skill ${skillName(skill).replace(CONTROL, ' ')}` : 'Untitled run';
}

/** `org/repo:skill` → `skill`; `org/repo:path/to/SKILL.md` → `to`. */
export function skillName(spec: string): string {
  const afterRepo = spec.includes(':') ? spec.slice(spec.lastIndexOf(':') + 1) : spec;
  const parts = afterRepo.split('/').filter(Boolean);
  const last = parts[parts.length - 1] ?? afterRepo;
  if (/^skill\.md$/i.test(last) && parts.length > 1) return parts[parts.length - 2]!;
  return last.replace(/\.md$/i, '');
}
