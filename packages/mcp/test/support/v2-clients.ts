import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN } from './mcp-harness.js';

/** The revision a v2 client speaks: 2026-07-28 (pinned, no fallback) or the 2025 handshake. */
export type Era = 'modern' | 'legacy';

/** What a host answers when the server asks its user (form elicitation); none: the host cannot ask. */
export type Answerer = (message: string, schema: Record<string, unknown>) => Record<string, string> | undefined;

function newClient(era: Era, answer?: Answerer): Client {
  const client = new Client(
    { name: 'agent-runs-mcp-test-v2', version: '2.0.0' },
    {
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {}),
      ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (answer) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { message: string; requestedSchema?: Record<string, unknown> };
      const content = answer(params.message, params.requestedSchema ?? {});
      return content ? { action: 'accept', content } : { action: 'decline' };
    });
  }
  return client;
}

/** Launches the bin over stdio and connects the SDK v2 client in `era`. */
export async function connectStdioV2(env: Record<string, string>, era: Era, answer?: Answerer): Promise<Client> {
  const client = newClient(era, answer);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN], env, stderr: 'pipe' }));
  return client;
}

/** Connects the SDK v2 client over Streamable HTTP in `era`, with optional headers (a bearer token). */
export async function connectHttpV2(url: string, era: Era, headers: Record<string, string> = {}, answer?: Answerer): Promise<Client> {
  const client = newClient(era, answer);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}
