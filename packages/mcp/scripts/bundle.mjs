// Bundles the compiled bin into one file. Hosts spawn the server for every session, and
// loading one file instead of some four hundred modules halves the time to `initialize`.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../dist/bin/agent-runs-mcp.js', import.meta.url).pathname],
  outfile: new URL('../dist/agent-runs-mcp.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
