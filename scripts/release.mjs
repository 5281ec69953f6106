#!/usr/bin/env node
// `npm run release`: every check a release needs, then what would be published. It
// publishes nothing: the last section lists the commands that would.
//
//   node scripts/release.mjs [--list-only]   --list-only skips the checks and only lists
//
// The checks: the build, the type-check of tests and benchmarks, the whole test suite, the
// committed Action bundle against the source, the pack check on this Node, and the runtime
// suites and pack check on Node 24 and 22 (.ci/other-node.sh).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishablePackages } from './workspace-packages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();

function step(title, command, args) {
  console.log(`\n== ${title}: ${[command, ...args].join(' ')}`);
  const at = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\nrelease: "${title}" failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}); nothing would be published.`);
    process.exit(1);
  }
  console.log(`== ${title}: ok (${((Date.now() - at) / 1000).toFixed(0)}s)`);
}

function output(command, args) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout : '';
}

const packages = publishablePackages(root);
const versions = new Set(packages.map((p) => p.version));
if (versions.size !== 1) {
  console.error(`release: the packages are kept at one version, but these differ: ${packages.map((p) => `${p.name}@${p.version}`).join(', ')}`);
  process.exit(1);
}
const [version] = versions;

const listOnly = process.argv.includes('--list-only');
if (!listOnly) {
  step('build', 'npm', ['run', 'build']);
  step('type-check tests and benchmarks', 'npx', ['tsc', '-p', 'tsconfig.json']);
  step('test suite', 'npx', ['vitest', 'run']);
  step('Action bundle', 'npm', ['run', 'build:action']);
  if (output('git', ['status', '--porcelain', '--', 'dist']).trim()) {
    console.error('release: dist/ is not what the source builds to: commit the rebuilt dist/ first.');
    process.exit(1);
  }
  step(`pack check on Node ${process.version}`, process.execPath, ['scripts/pack-check.mjs']);
  step('runtime suites and pack check on Node 24', 'bash', ['.ci/other-node.sh', '24']);
  step('runtime suites and pack check on Node 22', 'bash', ['.ci/other-node.sh', '22']);
}

console.log(`\n== What would be published (version ${version}; nothing was published)`);
for (const pkg of packages) {
  const [info] = JSON.parse(output('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', pkg.dir]) || '[{}]');
  const size = info.size ? `${(info.size / 1024).toFixed(0)} kB, ${info.entryCount} files` : 'could not pack';
  console.log(`  npm publish --workspace ${pkg.workspace}   ${pkg.name}@${pkg.version} (${size}), tag latest`);
}
const serverJson = JSON.parse(readFileSync(join(root, 'packages', 'mcp', 'server.json'), 'utf8'));
console.log(`  (cd packages/mcp && mcp-publisher publish)   ${serverJson.name}@${serverJson.version} in the MCP registry, from server.json`);
const major = version.split('.')[0];
console.log(`  git tag v${version} && git tag -f v${major} && git push origin v${version} v${major} -f   the Action (action.yml + dist/) as agent-runs/agent-runs@v${version} and @v${major}`);
const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
if (!new RegExp(`^## ${version.replaceAll('.', '\\.')}\\b`, 'm').test(changelog)) {
  console.log(`  (CHANGELOG.md has no "## ${version}" section yet)`);
}
if (listOnly) console.log('\nrelease: --list-only: no check was run; nothing was published.');
else console.log(`\nrelease: every check passed in ${((Date.now() - started) / 60_000).toFixed(1)} min; nothing was published.`);
