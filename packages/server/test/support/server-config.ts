import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { removedAfterFile } from '../../../../test/support/file-temp-dirs.js';

/** A temporary directory with the given files (path → text); returns its path. Removed after the test file (test/support/file-state-setup.ts). */
export function tempTree(files: Record<string, string> = {}, prefix = 'agent-runs-test-'): string {
  const root = removedAfterFile(mkdtempSync(join(tmpdir(), prefix)));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Writes a server configuration file (JSON) and returns its path. */
export function writeServerConfig(config: Record<string, unknown>, dir = tempTree()): string {
  const file = join(dir, 'agent-runs-server.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}
