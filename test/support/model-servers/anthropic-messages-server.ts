import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the scripted server answered: its path, the key it carried and its body. */
export interface RecordedRequest {
  path: string;
  apiKey: string | undefined;
  body: Record<string, unknown>;
}

export interface ScriptedModelServer {
  url: string;
  requests: RecordedRequest[];
  /** Requests that carried tools: the agent's own turns, not the harness's side calls. */
  agentTurns(): RecordedRequest[];
  close(): Promise<void>;
}

/** What the scripted agent does: write `file` with `content`, run `command`, then say `answer`. */
export interface AgentScript {
  file: string;
  content: string;
  command: string;
  answer: string;
  /** A prompt containing this makes the server answer 500 for ever (a harness that cannot go on). */
  failOn?: string;
  /** A prompt containing this makes the server hold the answer open (a harness that runs until stopped). */
  hangOn?: string;
  /** A prompt containing one of these markers runs its command instead of `command`. */
  commandOn?: Record<string, string>;
  /** A prompt containing one of these markers walks its tool calls instead of the Write and Bash ones. */
  toolsOn?: Record<string, ToolScript>;
}

/**
 * Tool calls the agent makes one a turn (an MCP tool's as `mcp__<server>__<tool>`), each
 * input built from the texts of the results before it, then its answer from all of them.
 */
export interface ToolScript {
  calls: { name: string; input: (results: string[]) => Record<string, unknown> }[];
  answer: (results: string[]) => string;
}

export const DEFAULT_SCRIPT: AgentScript = {
  file: 'hello.txt',
  content: 'hello from the scripted model\n',
  command: 'echo shell-ran > ran.txt && echo listed',
  answer: 'All done: hello.txt written and the command ran.',
  failOn: 'PLEASE-FAIL',
  hangOn: 'PLEASE-HANG',
};

/** Usage the server reports for every agent turn. */
export const TURN_USAGE = { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 10, cache_creation_input_tokens: 5 };

/** A request's JSON body; an empty or malformed one reads as `{}` (the script answers it as a side request). */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Listens on a loopback port and hands back the scripted server: what it recorded, the
 * requests that are agent turns (`isAgentTurn`), and a close that ends open streams too.
 */
export async function listenScripted(
  server: Server,
  requests: RecordedRequest[],
  open: Set<ServerResponse>,
  isAgentTurn: (request: RecordedRequest) => boolean,
): Promise<ScriptedModelServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    agentTurns: () => requests.filter(isAgentTurn),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request that offered the model tools: the agent's own turn, not a side request of the CLI. */
export const offersTools = (r: RecordedRequest): boolean => Array.isArray(r.body['tools']) && (r.body['tools'] as unknown[]).length > 0;

type Block = { type: string; [key: string]: unknown };
type Message = { role: string; content: string | Block[] };

function textOf(content: string | Block[]): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? String(b.text) : '')).join('');
}

/** The text of every tool result in the conversation, in order (a result's text blocks joined). */
function toolResults(messages: Message[]): string[] {
  return messages.flatMap((m) =>
    typeof m.content === 'string'
      ? []
      : m.content.filter((b) => b.type === 'tool_result').map((b) => (typeof b.content === 'string' ? b.content : textOf((b.content ?? []) as Block[]))),
  );
}

/** The name of the last tool the agent called, when the conversation ends with its result. */
function lastToolName(messages: Message[]): string | undefined {
  const last = messages.at(-1);
  if (!last || typeof last.content === 'string' || !last.content.some((b) => b.type === 'tool_result')) return undefined;
  const previous = messages.at(-2);
  if (!previous || typeof previous.content === 'string') return undefined;
  const use = [...previous.content].reverse().find((b) => b.type === 'tool_use');
  return use ? String(use.name) : undefined;
}

function workingDirectory(body: Record<string, unknown>): string | undefined {
  const system = body['system'];
  const text = typeof system === 'string' ? system : Array.isArray(system) ? (system as Block[]).map((b) => String(b.text ?? '')).join('\n') : '';
  return /Working directory: (\S+)/.exec(text)?.[1];
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Streams one assistant message of `blocks` (text or tool_use) in the Messages API's events. */
function streamMessage(res: ServerResponse, model: string, blocks: Block[], stopReason: string, usage = TURN_USAGE): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `msg_${Math.random().toString(36).slice(2)}`;
  sse(res, 'message_start', {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

/**
 * A model server of our own on loopback that speaks the Anthropic Messages API (streaming)
 * and walks the agent through a script: text and a Write call, then a Bash call, then the
 * answer. The turn is read from the conversation (which tool's result ends it), so a resumed
 * session starts the script again with its earlier turns in view.
 */
export async function startAnthropicServer(script: AgentScript = DEFAULT_SCRIPT): Promise<ScriptedModelServer> {
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      const path = req.url ?? '/';
      requests.push({ path, apiKey: req.headers['x-api-key'] as string | undefined, body });
      if (!path.startsWith('/v1/messages') || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not here' } }));
        return;
      }
      if (path.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      const model = String(body['model'] ?? 'claude-sonnet-4-5');
      const messages = (body['messages'] ?? []) as Message[];
      const tools = (body['tools'] ?? []) as Block[];
      const everything = messages.map((m) => textOf(m.content)).join('\n');
      if (script.failOn && everything.includes(script.failOn)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'The scripted model refuses this prompt.' } }));
        return;
      }
      if (script.hangOn && everything.includes(script.hangOn) && tools.length > 0) {
        open.add(res);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        return;
      }
      if (tools.length === 0 || body['stream'] !== true) {
        // A side call of the harness (a title, a check): a short plain answer.
        if (body['stream'] === true) return streamMessage(res, model, [{ type: 'text', text: 'ok' }], 'end_turn', { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ id: 'msg_side', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }),
        );
        return;
      }
      const tooling = Object.entries(script.toolsOn ?? {}).find(([marker]) => everything.includes(marker))?.[1];
      if (tooling) {
        // One call a turn: the results so far say which call is next.
        const results = toolResults(messages);
        const call = tooling.calls[results.length];
        if (call) streamMessage(res, model, [{ type: 'tool_use', id: `toolu_m${requests.length}`, name: call.name, input: call.input(results) }], 'tool_use');
        else streamMessage(res, model, [{ type: 'text', text: tooling.answer(results) }], 'end_turn');
        return;
      }
      const last = lastToolName(messages);
      const dir = workingDirectory(body);
      const file = dir ? `${dir}/${script.file}` : script.file;
      if (last === undefined) {
        streamMessage(res, model, [
          { type: 'text', text: 'I will write the file first.' },
          { type: 'tool_use', id: `toolu_w${requests.length}`, name: 'Write', input: { file_path: file, content: script.content } },
        ], 'tool_use');
      } else if (last === 'Write') {
        const command = Object.entries(script.commandOn ?? {}).find(([marker]) => everything.includes(marker))?.[1] ?? script.command;
        streamMessage(res, model, [{ type: 'tool_use', id: `toolu_b${requests.length}`, name: 'Bash', input: { command, description: 'Run the command' } }], 'tool_use');
      } else {
        streamMessage(res, model, [{ type: 'text', text: script.answer }], 'end_turn');
      }
    })();
  });
  return listenScripted(server, requests, open, offersTools);
}
