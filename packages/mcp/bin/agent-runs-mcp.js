#!/usr/bin/env node
// A committed, executable entry point: in a clone the bundle in dist/ exists only once the
// packages are built (npm ci builds them).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/agent-runs-mcp.mjs', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('agent-runs-mcp: this package is not built. Run `npm run build` at the repository root (`npm ci` does it too).\n');
  process.exit(1);
}
await import(entry.href);
