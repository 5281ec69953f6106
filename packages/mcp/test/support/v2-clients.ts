import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN } from './mcp-harness.js';

/** The revision a v2 client speaks: 2026-07-28 (pinned, no fallback) or the 2025 handshake. */
export type Era = 'modern' | 'legacy';

function newClient(era: Era): Client {
  return new Client(
    { name: 'agent-runs-mcp-test-v2', version: '2.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
}

/** Launches the bin over stdio and connects the SDK v2 client in `era`. */
export async function connectStdioV2(env: Record<string, string>, era: Era): Promise<Client> {
  const client = newClient(era);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN], env, stderr: 'pipe' }));
  return client;
}

/** Connects the SDK v2 client over Streamable HTTP in `era`, with optional headers (a bearer token). */
export async function connectHttpV2(url: string, era: Era, headers: Record<string, string> = {}): Promise<Client> {
  const client = newClient(era);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}
