import { basename, relative, isAbsolute } from 'node:path';

/**
 * How the user started this command, so hints can be pasted back: `agent-runs` when run
 * through its bin link, `node packages/cli/dist/bin/agent-runs.js` when run by path.
 */
export function invocationFrom(scriptPath: string | undefined, cwd: string): string {
  if (!scriptPath || !scriptPath.endsWith('.js')) return 'agent-runs';
  if (basename(scriptPath) !== 'agent-runs.js') return 'agent-runs';
  const rel = relative(cwd, scriptPath);
  const shown = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? scriptPath : rel;
  return `node ${shown.includes(' ') ? JSON.stringify(shown) : shown}`;
}
