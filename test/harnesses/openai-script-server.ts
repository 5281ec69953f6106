import { createServer, type Server, type ServerResponse } from 'node:http';
import { DEFAULT_SCRIPT, listenScripted, offersTools, readJson, type AgentScript, type RecordedRequest, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';

export { DEFAULT_SCRIPT };

/** Usage the server reports for every agent turn: 100 input tokens (10 of them cached), 20 output (5 of them reasoning). */
export const OPENAI_TURN_USAGE = { input_tokens: 100, cached_tokens: 10, output_tokens: 20, reasoning_tokens: 5 };

type Item = { type: string; [key: string]: unknown };
type Tool = { type: string; name?: string };

function textOf(item: Item): string {
  const content = item['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Item[]).map((c) => (typeof c['text'] === 'string' ? c['text'] : '')).join('');
}

/** How many tool results the agent has had since the user last spoke: the step of the script it is at. */
function stepOf(input: Item[]): number {
  let step = 0;
  for (const item of input) {
    if (item.type === 'message' && item['role'] === 'user') step = 0;
    else if (/_call_output$/.test(item.type)) step++;
  }
  return step;
}

/** A patch in Codex's apply_patch format that adds `file` holding `content`. */
function addFilePatch(file: string, content: string): string {
  const lines = content.replace(/\n$/, '').split('\n').map((l) => `+${l}`);
  return ['*** Begin Patch', `*** Add File: ${file}`, ...lines, '*** End Patch', ''].join('\n');
}

/** The call that writes the file, through whichever edit tool the harness offers. */
function writeCall(tools: Tool[], script: AgentScript, id: string): Item {
  const patch = addFilePatch(script.file, script.content);
  const applyPatch = tools.find((t) => t.name === 'apply_patch');
  if (applyPatch?.type === 'custom') return { type: 'custom_tool_call', id, call_id: `call_${id}`, name: 'apply_patch', input: patch, status: 'completed' };
  if (applyPatch) return { type: 'function_call', id, call_id: `call_${id}`, name: 'apply_patch', arguments: JSON.stringify({ input: patch }), status: 'completed' };
  // No edit tool: the patch goes through the shell, which Codex intercepts as an edit.
  return shellCall(tools, `apply_patch <<'EOF'\n${patch}EOF`, id);
}

/** The call that runs `command`, through whichever shell tool the harness offers. */
function shellCall(tools: Tool[], command: string, id: string): Item {
  const names = new Set(tools.map((t) => t.name));
  const call = (name: string, args: unknown): Item => ({ type: 'function_call', id, call_id: `call_${id}`, name, arguments: JSON.stringify(args), status: 'completed' });
  if (names.has('shell_command')) return call('shell_command', { command });
  if (names.has('exec_command')) return call('exec_command', { cmd: command });
  return call('shell', { command: ['bash', '-lc', command] });
}

function sse(res: ServerResponse, data: { type: string; [key: string]: unknown }): void {
  res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Streams one response of `items` (messages and tool calls) in the Responses API's events. */
function streamResponse(res: ServerResponse, model: string, items: Item[], usage = OPENAI_TURN_USAGE): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `resp_${Math.random().toString(36).slice(2)}`;
  sse(res, { type: 'response.created', response: { id, model, status: 'in_progress', output: [] } });
  items.forEach((item, index) => {
    if (item.type === 'message') {
      sse(res, { type: 'response.output_item.added', output_index: index, item: { ...item, content: [] } });
      sse(res, { type: 'response.output_text.delta', output_index: index, item_id: item['id'], content_index: 0, delta: textOf(item) });
    } else {
      sse(res, { type: 'response.output_item.added', output_index: index, item });
    }
    sse(res, { type: 'response.output_item.done', output_index: index, item });
  });
  sse(res, {
    type: 'response.completed',
    response: {
      id,
      model,
      status: 'completed',
      output: items,
      usage: {
        input_tokens: usage.input_tokens,
        input_tokens_details: { cached_tokens: usage.cached_tokens },
        output_tokens: usage.output_tokens,
        output_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
        total_tokens: usage.input_tokens + usage.output_tokens,
      },
    },
  });
  res.end();
}

const message = (id: string, text: string): Item => ({ type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });

/**
 * A model server of our own on loopback that speaks OpenAI's Responses API (`POST
 * /v1/responses`, streaming) and walks the agent through a script: text and an edit that
 * writes the file, then a shell command, then the answer. The turn is read from the
 * conversation (which tool's result ends it), so a resumed session starts the script again
 * with its earlier turns in view. Every other path is a 404, recorded like the rest.
 */
export async function startOpenAiServer(script: AgentScript = DEFAULT_SCRIPT): Promise<ScriptedModelServer> {
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      const path = req.url ?? '/';
      const auth = req.headers['authorization'];
      requests.push({ path, apiKey: typeof auth === 'string' ? auth.replace(/^Bearer /, '') : undefined, body });
      if (!path.startsWith('/v1/responses') || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not here', type: 'invalid_request_error', code: 'not_found' } }));
        return;
      }
      const model = String(body['model'] ?? 'gpt-5.5');
      const input = (Array.isArray(body['input']) ? body['input'] : []) as Item[];
      const tools = (Array.isArray(body['tools']) ? body['tools'] : []) as Tool[];
      const everything = input.filter((i) => i.type === 'message').map(textOf).join('\n');
      if (script.failOn && everything.includes(script.failOn)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'The scripted model refuses this prompt.', type: 'invalid_request_error', code: 'refused', param: null } }));
        return;
      }
      if (script.hangOn && everything.includes(script.hangOn)) {
        open.add(res);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        return;
      }
      const n = requests.length;
      const step = stepOf(input);
      if (tools.length === 0) return streamResponse(res, model, [message(`msg_side${n}`, 'ok')], { input_tokens: 1, cached_tokens: 0, output_tokens: 1, reasoning_tokens: 0 });
      if (step === 0) streamResponse(res, model, [message(`msg_a${n}`, 'I will write the file first.'), writeCall(tools, script, `w${n}`)]);
      else if (step === 1) streamResponse(res, model, [shellCall(tools, script.command, `b${n}`)]);
      else streamResponse(res, model, [message(`msg_z${n}`, script.answer)]);
    })();
  });
  return listenScripted(server, requests, open, offersTools);
}
