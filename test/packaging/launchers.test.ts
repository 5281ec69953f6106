import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Each bin is a committed launcher in the package's bin/ that loads the build from dist/.
const root = fileURLToPath(new URL('../..', import.meta.url));
const launchers = [
  ['agent-runs', 'packages/cli/bin/agent-runs.js'],
  ['agent-runs-mcp', 'packages/mcp/bin/agent-runs-mcp.js'],
  ['agent-runs-server', 'packages/server/bin/agent-runs-server.js'],
  ['agent-runs-worker', 'packages/server/bin/agent-runs-worker.js'],
  ['agent-runs-job-entrypoint', 'packages/server/bin/agent-runs-job-entrypoint.js'],
] as const;
const scratch = mkdtempSync(join(tmpdir(), 'agent-runs-launchers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('bin launchers', () => {
  it.each(launchers)('%s, with no build beside it, says to run npm run build and exits 1', (bin, path) => {
    const dir = join(scratch, bin, 'bin');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(root, path), join(dir, `${bin}.js`));
    writeFileSync(join(scratch, bin, 'package.json'), '{ "type": "module" }\n');
    const result = spawnSync(process.execPath, [join(dir, `${bin}.js`), '--help'], { encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`${bin}: this package is not built. Run \`npm run build\` at the repository root (\`npm ci\` does it too).\n`);
    expect(result.stdout).toBe('');
  });

  it.each(launchers)('%s, with the build, runs it', (bin, path) => {
    const result = spawnSync(process.execPath, [join(root, path), '--help'], { encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(bin);
  });
});
