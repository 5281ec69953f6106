#!/usr/bin/env node
// A committed, executable entry point: in a clone the bundle in dist/ exists only once the
// packages are built (npm ci builds them).
// Built-ins through process.getBuiltinModule: an import of one builds a facade reading all its exports.
const { existsSync } = process.getBuiltinModule('node:fs');
const { enableCompileCache } = process.getBuiltinModule('node:module');
const { homedir } = process.getBuiltinModule('node:os');
const { join } = process.getBuiltinModule('node:path');

const entry = new URL('../dist/agent-runs-mcp.mjs', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('agent-runs-mcp: this package is not built. Run `npm run build` at the repository root (`npm ci` does it too).\n');
  process.exit(1);
}
// Hosts spawn the server for every session: on Node 22.1+ V8 keeps the bundle's compiled code
// in Node's compile cache, so starts after the first skip most of compiling it. The cache is
// the user's own (NODE_COMPILE_CACHE, else under XDG_CACHE_HOME or ~/.cache), not Node's
// default in the shared temp directory, where another user could have made the directory
// first. Node reports a directory it cannot use instead of throwing;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
try {
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  enableCompileCache?.(process.env.NODE_COMPILE_CACHE || join(cacheHome, 'agent-runs-mcp', 'compile-cache'));
} catch {
  // Never a reason not to start.
}
await import(entry.href);
