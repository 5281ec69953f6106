import { lstatSync } from 'node:fs';
import { isAbsolute, normalize } from 'node:path';

const MAX_FILES = 32;
const SYSTEM = /^\/(usr|bin|sbin|lib|lib32|lib64|libx32|etc|opt)(\/|$)/;

/** The words of a shell line, quotes removed (enough to find the paths it names, not a shell). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'";|&<>()]+)/g)].map((m) => m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3] ?? '');
}

/**
 * The regular files an operator's command line names by absolute path outside the system
 * directories (`sh /srv/agents/review.sh`, a wrapper's config): part of the agent's
 * harness, so the sandbox shows them read-only. Links are not followed.
 */
export function commandFiles(line: string): string[] {
  const files = new Set<string>();
  for (const word of words(line)) {
    const path = word.includes('=') ? word.slice(word.indexOf('=') + 1) : word;
    if (!isAbsolute(path) || SYSTEM.test(path)) continue;
    if (lstatSync(path, { throwIfNoEntry: false })?.isFile()) files.add(normalize(path));
    if (files.size >= MAX_FILES) break;
  }
  return [...files];
}
