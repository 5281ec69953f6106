// The workspace packages that get published, read from the root package.json: one home for
// the list, shared by the pack check and the release script.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every workspace package that is not `private`, in the root's workspace order. */
export function publishablePackages(root) {
  const rootJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return rootJson.workspaces
    .map((workspace) => {
      const dir = join(root, workspace);
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return { name: json.name, version: json.version, dir, workspace, json };
    })
    .filter((pkg) => !pkg.json.private);
}

/**
 * The import subpaths a package offers, from its `exports` ('.', './contract', ...):
 * './package.json' and pattern entries ('./*') are left out, having no one module to load.
 */
export function exportSubpaths(json) {
  const { exports } = json;
  if (exports === undefined) return json.main ? ['.'] : [];
  if (typeof exports === 'string' || Array.isArray(exports)) return ['.'];
  const keys = Object.keys(exports);
  if (!keys.some((key) => key.startsWith('.'))) return ['.']; // conditions only, for '.'
  return keys.filter((key) => key !== './package.json' && !key.includes('*'));
}

/** The tarball's file name without its version: @agent-runs/core -> agent-runs-core.tgz. */
export function tarballName(name) {
  return `${name.replace(/^@/, '').replace('/', '-')}.tgz`;
}
