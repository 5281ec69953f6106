import { isAbsolute, relative } from 'node:path';
import type { HarnessEvent, HarnessStreamParser, TurnPart } from './harness-event.js';
import { jsonLine, num, obj, str, type Json } from './json-line.js';
import { toolCallLine, toolResultLines } from './tool-call-line.js';

/** `/bin/bash -lc 'npm test'` as Codex reports a command: the command the agent wrote. */
export function unwrapShell(command: string): string {
  const match = /^(?:\S*\/)?(?:ba|z)?sh -l?c '((?:[^']|'\\'')*)'$/s.exec(command);
  return match ? match[1]!.replaceAll(`'\\''`, `'`) : command;
}

/** An error as Codex passes it on: often the provider's JSON body, whose own message is the readable part. */
function errorText(message: string): string {
  try {
    const inner = obj(obj(JSON.parse(message))['error'])['message'];
    if (typeof inner === 'string' && inner) return inner;
  } catch {
    // Plain text already.
  }
  return message;
}

function mcpResultText(result: unknown): string {
  const content = obj(result)['content'];
  return (Array.isArray(content) ? content : []).map((c) => str(obj(c)['text'])).join('\n');
}

/**
 * `codex exec --json` lines: `thread.started` (the session to resume), `item.started` /
 * `item.completed` (agent text, commands, file changes, MCP calls, searches, warnings),
 * `turn.completed` (the thread's token counts so far, which a resumed thread carries on)
 * and `turn.failed` / `error`. Codex reports tokens but no dollars, and names no model:
 * the usage is the model it was started with, priced at list prices.
 */
export class CodexStreamParser implements HarnessStreamParser {
  /** Items already shown when they started, so their end adds only their result. */
  private readonly shown = new Set<string>();
  private lastMessage = '';

  constructor(
    private readonly model: string,
    private readonly workDir: string | undefined,
  ) {}

  private path(path: string): string {
    if (!this.workDir || !isAbsolute(path)) return path;
    const inside = relative(this.workDir, path);
    return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
  }

  /** The item's one line when it starts (or ends, if its start was not reported). */
  private callLine(item: Json): string | undefined {
    switch (item['type']) {
      case 'command_execution':
        return toolCallLine('shell', { command: unwrapShell(str(item['command'])) });
      case 'file_change': {
        const changes = (Array.isArray(item['changes']) ? item['changes'] : []).map(obj);
        return changes.map((c) => `${c['kind'] === 'delete' ? 'delete' : 'edit'} ${this.path(str(c['path']))}`).join('\n') || 'edit';
      }
      case 'mcp_tool_call':
        return toolCallLine(`${str(item['server'])}.${str(item['tool'])}`, obj(item['arguments']));
      case 'web_search':
        return toolCallLine('search', { query: str(item['query']) });
      default:
        return undefined;
    }
  }

  /** What an item's end adds under its line: a result, or that it failed. */
  private resultText(item: Json): string {
    switch (item['type']) {
      case 'command_execution': {
        const out = toolResultLines(str(item['aggregated_output']));
        const code = item['exit_code'];
        return typeof code === 'number' && code !== 0 ? `${out}  (exit code ${code})\n` : out;
      }
      case 'file_change':
        return item['status'] === 'failed' ? '  (the change failed)\n' : '';
      case 'mcp_tool_call': {
        const error = str(obj(item['error'])['message']);
        return error ? toolResultLines(`error: ${error}`) : toolResultLines(mcpResultText(item['result']));
      }
      default:
        return '';
    }
  }

  line(line: string): HarnessEvent[] {
    const event = jsonLine(line);
    if (Array.isArray(event)) return event;
    const events: HarnessEvent[] = [];
    const output = (text: string, part?: TurnPart) => {
      if (text) events.push({ kind: 'output', text: text.endsWith('\n') ? text : `${text}\n`, ...(part ? { part } : {}) });
    };
    switch (event['type']) {
      case 'thread.started':
        if (str(event['thread_id'])) events.push({ kind: 'session', id: str(event['thread_id']) });
        break;
      case 'item.started': {
        const item = obj(event['item']);
        const call = this.callLine(item);
        if (call !== undefined) {
          this.shown.add(str(item['id']));
          output(call, 'action');
        }
        break;
      }
      case 'item.completed': {
        const item = obj(event['item']);
        if (item['type'] === 'agent_message') {
          const text = str(item['text']).replace(/\n+$/, '');
          if (text.trim()) {
            this.lastMessage = text;
            output(text, 'text');
          }
        } else if (item['type'] === 'error') {
          output(`warning: ${str(item['message'])}`);
        } else {
          const call = this.shown.delete(str(item['id'])) ? undefined : this.callLine(item);
          if (call !== undefined) output(call, 'action');
          output(this.resultText(item), 'result');
        }
        break;
      }
      case 'turn.completed': {
        const usage = obj(event['usage']);
        const input = num(usage['input_tokens']);
        const cached = Math.min(num(usage['cached_input_tokens']), input);
        const tokens = {
          // OpenAI counts cached tokens within the input; the contract counts them apart.
          input: input - cached,
          input_cache_read: cached,
          input_cache_write: num(usage['cache_write_input_tokens']),
          // Reasoning tokens are within the output, and priced as output.
          output: num(usage['output_tokens']),
        };
        events.push({ kind: 'totals', byModel: new Map([[this.model, { tokens, webSearches: 0 }]]) });
        events.push({ kind: 'result', text: this.lastMessage, isError: false });
        break;
      }
      case 'turn.failed':
        events.push({ kind: 'result', text: errorText(str(obj(event['error'])['message'])) || 'the turn failed', isError: true });
        break;
      case 'error':
        // Retries and fatal errors alike; a fatal one is followed by `turn.failed` or the exit.
        output(`error: ${errorText(str(event['message']))}`);
        break;
    }
    return events;
  }
}
