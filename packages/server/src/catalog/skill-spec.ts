import type { SkillVariant } from './skill-catalog.js';

export type SkillMatch = { ok: true; variant: SkillVariant } | { ok: false; reason: string };

/** `owner/repo`, or just `repo`, names the variant's repository. */
function repoMatches(v: SkillVariant, repoPart: string): boolean {
  const [a, b] = repoPart.split('/');
  return b === undefined ? a === v.repo : a === v.owner && b === v.repo;
}

/** `name`, `path/to/SKILL.md` or `path/to` (the skill's directory) names the variant inside its repository. */
function skillMatches(v: SkillVariant, rest: string): boolean {
  const path = rest.replace(/^\.?\//, '');
  return path === v.name || path === v.skillPath || `${path}/SKILL.md` === v.skillPath || (path === '' && v.skillPath === 'SKILL.md');
}

/**
 * Resolves a skill spec (`owner/repo:name`, `repo:name`, `owner/repo:path/to/SKILL.md`, or a
 * bare name or path) to one usable variant; the reason says what was searched when none fits.
 */
export function matchSkill(variants: readonly SkillVariant[], spec: string): SkillMatch {
  const text = spec.trim();
  const colon = text.indexOf(':');
  const candidates = variants.filter((v) =>
    colon > 0 ? repoMatches(v, text.slice(0, colon)) && skillMatches(v, text.slice(colon + 1)) : skillMatches(v, text) || v.id === text,
  );
  const usable = candidates.filter((v) => !v.error);
  if (usable.length === 1) return { ok: true, variant: usable[0]! };
  if (usable.length > 1) {
    return {
      ok: false,
      reason: `"${spec}" matches ${usable.length} skills (${usable.map((v) => v.id).join(', ')}); name one as owner/repo:path/to/SKILL.md`,
    };
  }
  if (candidates.length) return { ok: false, reason: `"${spec}" names a SKILL.md that cannot be used: ${candidates[0]!.error}` };
  const known = [...new Set(variants.filter((v) => !v.error).map((v) => `${v.owner}/${v.repo}:${v.name}`))];
  return {
    ok: false,
    reason: `"${spec}" matches no skill of this server; ${known.length ? `known: ${known.slice(0, 20).join(', ')}` : 'none is configured (skill_directories or environment repositories in the configuration file)'}`,
  };
}
