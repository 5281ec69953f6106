import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
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

/** The tasks extension of 2026-07-28, as a host declares it in each request's capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export interface TaskHost {
  client: Client;
  /** Every message the server sent, as it came off the wire (the SDK client drops a task result). */
  received: Array<{ id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * A 2026-07-28 SDK v2 client that declares the tasks extension (or not), over stdio
 * (launching the bin) or HTTP, recording what it receives.
 */
export async function connectTaskHost(target: { env: Record<string, string> } | { url: string }, withTasks = true): Promise<TaskHost> {
  const client = new Client(
    { name: 'agent-runs-mcp-test-tasks', version: '2.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' as const } },
      ...(withTasks ? { capabilities: { extensions: { [TASKS_EXTENSION]: {} } } } : {}),
    },
  );
  const transport: Transport =
    'url' in target
      ? new StreamableHTTPClientTransport(new URL(target.url))
      : new StdioClientTransport({ command: process.execPath, args: [BIN], env: target.env, stderr: 'pipe' });
  await client.connect(transport);
  const received: TaskHost['received'] = [];
  const handle = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    received.push(message as TaskHost['received'][number]);
    handle?.(message);
  };
  return { client, received, close: () => client.close() };
}
