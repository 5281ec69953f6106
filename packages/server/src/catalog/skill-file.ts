import { parse } from 'yaml';

export const MAX_SKILL_BYTES = 64 * 1024;

export interface SkillText {
  name: string;
  description: string;
  /** The instructions after the front matter: the agent's base prompt. */
  body: string;
  /** Set when the file could not be used; the other fields are then best effort. */
  error?: string | undefined;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/**
 * Reads a SKILL.md: YAML front matter with `name` and `description` (both optional here;
 * the name falls back to the directory's, the description to the first line of text).
 */
export function parseSkillFile(text: string, fallbackName: string): SkillText {
  // The text becomes an environment variable of the agent, which cannot hold a NUL: refused here, not at each run.
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    const line = text.slice(0, nul).split('\n').length;
    const named = parseSkillFile(text.replaceAll('\0', ''), fallbackName);
    return { ...named, body: '', error: `the file holds a NUL character (line ${line}); a SKILL.md is text` };
  }
  const match = FRONT_MATTER.exec(text);
  let meta: Record<string, unknown> = {};
  let error: string | undefined;
  if (match) {
    try {
      const parsed = parse(match[1]!) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
      else if (parsed != null) error = 'the front matter is not a mapping of name, description, ...';
    } catch (e) {
      error = `the front matter is not valid YAML: ${(e as Error).message.split('\n')[0]}`;
    }
  }
  const body = (match ? text.slice(match[0].length) : text).trim();
  const name = typeof meta.name === 'string' && meta.name.trim() ? meta.name.trim() : fallbackName;
  const firstLine = body.split('\n').find((line) => line.trim() && !line.startsWith('#'))?.trim() ?? '';
  const description = typeof meta.description === 'string' ? meta.description.trim() : firstLine;
  if (!error && body === '') error = 'the file has no instructions after its front matter';
  return { name, description, body, error: error || undefined };
}
