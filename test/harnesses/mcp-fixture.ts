/**
 * A stdio MCP server with one tool (`echo`), given to a harness inline (`node -e MCP_FIXTURE
 * <file>`): a sandboxed agent sees no test files. It appends each message's method and its
 * TOOLS_TOKEN variable to <file>, relative to its working directory (the run's).
 */
export const MCP_FIXTURE = `
const { appendFileSync } = require('node:fs');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  appendFileSync(process.argv.at(-1), JSON.stringify({ method: m.method, token: process.env.TOOLS_TOKEN }) + '\\n');
  if (m.id === undefined) return;
  if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'fixture', version: '1.0.0' } } });
  else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'echo', description: 'Echoes its text', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] } });
  else send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } });
});
`;
