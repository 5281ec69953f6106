import { createServer, type Server, type ServerResponse } from 'node:http';
import { DEFAULT_SCRIPT, listenScripted, readJson, type AgentScript, type RecordedRequest, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';

/** Usage the server reports for every agent turn (the prompt count includes the cached part). */
export const GEMINI_TURN_USAGE = { promptTokenCount: 100, cachedContentTokenCount: 10, candidatesTokenCount: 20, thoughtsTokenCount: 5, totalTokenCount: 125 };

type Part = { text?: string; functionCall?: { name: string; args?: unknown }; functionResponse?: { name: string; response?: unknown } };
type Content = { role?: string; parts?: Part[] };

/** The name of the function whose result ends the conversation, if it ends with one. */
function lastFunctionName(contents: Content[]): string | undefined {
  const last = contents.at(-1);
  return last?.parts?.find((p) => p.functionResponse)?.functionResponse?.name;
}

/** The CLI names its workspace directories in the session context of the first user turn. */
function workspaceDirectory(contents: Content[]): string | undefined {
  const text = contents.flatMap((c) => c.parts ?? []).map((p) => p.text ?? '').join('\n');
  return /Workspace Directories:\*\*\s*\n\s*- (\S+)/.exec(text)?.[1];
}

function hasTools(body: Record<string, unknown>): boolean {
  const tools = body['tools'];
  return Array.isArray(tools) && tools.some((t) => Array.isArray((t as { functionDeclarations?: unknown[] }).functionDeclarations));
}

/** One model response of `parts`, streamed as server-sent events, text first (in two chunks) then the calls. */
function streamResponse(res: ServerResponse, model: string, parts: Part[], usage: Record<string, number> = GEMINI_TURN_USAGE): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const responseId = `resp_${Math.random().toString(36).slice(2)}`;
  const chunk = (chunkParts: Part[], last: boolean) =>
    res.write(
      `data: ${JSON.stringify({
        candidates: [{ content: { role: 'model', parts: chunkParts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
        ...(last ? { usageMetadata: usage } : {}),
        modelVersion: model,
        responseId,
      })}\r\n\r\n`,
    );
  const texts = parts.filter((p) => p.text !== undefined);
  const calls = parts.filter((p) => p.text === undefined);
  for (const part of texts) {
    // Split mid-word: the harness streams deltas, which the parser must join into one line.
    const cut = Math.floor(part.text!.length / 2);
    chunk([{ text: part.text!.slice(0, cut) }], false);
    chunk([{ text: part.text!.slice(cut) }], false);
  }
  chunk(calls.length > 0 ? calls : [{ text: '' }], true);
  res.end();
}

/**
 * A model server of our own on loopback that speaks the Gemini API (`streamGenerateContent`
 * with server-sent events, `generateContent`, `countTokens`) and walks the agent through the
 * same script as the Anthropic one: text and a write_file call, then a run_shell_command
 * call, then the answer. The step is read from the conversation (which function's result
 * ends it), so a resumed session starts the script again with its earlier turns in view.
 */
export async function startGeminiServer(script: AgentScript = DEFAULT_SCRIPT): Promise<ScriptedModelServer> {
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      const path = req.url ?? '/';
      requests.push({ path, apiKey: req.headers['x-goog-api-key'] as string | undefined, body });
      const match = /^\/v1beta\/models\/([^/:?]+):(streamGenerateContent|generateContent|countTokens)/.exec(path);
      if (!match || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'not here', status: 'NOT_FOUND' } }));
        return;
      }
      const [, model = 'gemini-2.5-flash', method] = match;
      if (method === 'countTokens') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 100 }));
        return;
      }
      const contents = (body['contents'] ?? []) as Content[];
      const everything = contents.flatMap((c) => c.parts ?? []).map((p) => p.text ?? '').join('\n');
      if (script.failOn && everything.includes(script.failOn)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 400, message: 'The scripted model refuses this prompt.', status: 'INVALID_ARGUMENT' } }));
        return;
      }
      if (script.hangOn && everything.includes(script.hangOn) && hasTools(body)) {
        open.add(res);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        return;
      }
      if (method === 'generateContent' || !hasTools(body)) {
        // A side call of the harness (a routing or next-speaker check): a short JSON answer.
        const reply = { candidates: [{ content: { role: 'model', parts: [{ text: '{}' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 }, modelVersion: model };
        if (method === 'streamGenerateContent') {
          res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(reply)}\r\n\r\n`);
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
        }
        return;
      }
      const last = lastFunctionName(contents);
      const dir = workspaceDirectory(contents);
      const file = dir ? `${dir}/${script.file}` : script.file;
      if (last === undefined) {
        streamResponse(res, model, [{ text: 'I will write the file first.' }, { functionCall: { name: 'write_file', args: { file_path: file, content: script.content } } }]);
      } else if (last === 'write_file') {
        streamResponse(res, model, [{ functionCall: { name: 'run_shell_command', args: { command: script.command, description: 'Run the command' } } }]);
      } else {
        streamResponse(res, model, [{ text: script.answer }]);
      }
    })();
  });
  return listenScripted(server, requests, open, (r) => r.path.includes(':streamGenerateContent') && hasTools(r.body));
}
