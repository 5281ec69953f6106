import { basename, relative, isAbsolute } from 'node:path';

/**
 * How the user started this command, so hints can be pasted back: `agent-runs` when run
 * through its bin link, `npx agent-runs` when npx ran that link (npm sets `npm_command`
 * to `exec` for it), `node packages/cli/bin/agent-runs.js` when run by path.
 */
export function invocationFrom(scriptPath: string | undefined, cwd: string, npmCommand?: string): string {
  const bare = npmCommand === 'exec' ? 'npx agent-runs' : 'agent-runs';
  if (!scriptPath || !scriptPath.endsWith('.js')) return bare;
  if (basename(scriptPath) !== 'agent-runs.js') return bare;
  const rel = relative(cwd, scriptPath);
  const shown = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? scriptPath : rel;
  return `node ${shown.includes(' ') ? JSON.stringify(shown) : shown}`;
}
