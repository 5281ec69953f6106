#!/usr/bin/env node
// A committed, executable entry point: tsc's output in dist/ loses its mode on every build,
// and in a clone dist/ exists only once the packages are built (npm ci builds them).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/bin/agent-runs-job-entrypoint.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('agent-runs-job-entrypoint: this package is not built. Run `npm run build` at the repository root (`npm ci` does it too).\n');
  process.exit(1);
}
await import(entry.href);
