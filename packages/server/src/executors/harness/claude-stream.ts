import type { HarnessEvent, HarnessStreamParser } from './harness-event.js';
import { jsonLine, num, obj, type Json } from './json-line.js';
import { toolCallLine, toolResultLines } from './tool-call-line.js';
import type { TokenCount } from './usage-tally.js';

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (typeof obj(c)['text'] === 'string' ? (obj(c)['text'] as string) : '')).join('\n');
  return '';
}

function tokens(usage: Json): TokenCount {
  return {
    input: num(usage['input_tokens'] ?? usage['inputTokens']),
    output: num(usage['output_tokens'] ?? usage['outputTokens']),
    input_cache_read: num(usage['cache_read_input_tokens'] ?? usage['cacheReadInputTokens']),
    input_cache_write: num(usage['cache_creation_input_tokens'] ?? usage['cacheCreationInputTokens']),
  };
}

/**
 * Claude Code's `--output-format stream-json --verbose` lines: `system/init` (the session),
 * `assistant` (text and tool calls, with the message's usage), `user` (tool results) and
 * the final `result` (the answer or error, cost and usage per model).
 */
export class ClaudeStreamParser implements HarnessStreamParser {
  line(line: string): HarnessEvent[] {
    const event = jsonLine(line);
    if (Array.isArray(event)) return event;
    const events: HarnessEvent[] = [];
    const sessionId = event['session_id'];
    switch (event['type']) {
      case 'system':
        if (event['subtype'] === 'init' && typeof sessionId === 'string') events.push({ kind: 'session', id: sessionId });
        break;
      case 'assistant': {
        const message = obj(event['message']);
        const content = Array.isArray(message['content']) ? (message['content'] as unknown[]) : [];
        for (const block of content.map(obj)) {
          if (block['type'] === 'text' && typeof block['text'] === 'string' && block['text'].trim()) {
            events.push({ kind: 'output', text: `${block['text'].replace(/\n+$/, '')}\n`, part: 'text' });
          } else if (block['type'] === 'tool_use') {
            events.push({ kind: 'output', text: `${toolCallLine(String(block['name'] ?? 'tool'), obj(block['input']))}\n`, part: 'action' });
          }
        }
        const model = message['model'];
        if (typeof message['id'] === 'string' && typeof model === 'string' && model !== '<synthetic>' && message['usage']) {
          events.push({ kind: 'message-usage', messageId: message['id'], model, tokens: tokens(obj(message['usage'])) });
        }
        break;
      }
      case 'user': {
        const content = obj(event['message'])['content'];
        for (const block of (Array.isArray(content) ? content : []).map(obj)) {
          if (block['type'] !== 'tool_result') continue;
          const text = toolResultLines(resultText(block['content']));
          if (text) events.push({ kind: 'output', text, part: 'result' });
        }
        break;
      }
      case 'result': {
        const byModel = new Map<string, { tokens: TokenCount; costUsd?: number; webSearches: number }>();
        for (const [model, usage] of Object.entries(obj(event['modelUsage']))) {
          const u = obj(usage);
          byModel.set(model, { tokens: tokens(u), costUsd: num(u['costUSD']), webSearches: num(u['webSearchRequests']) });
        }
        if (byModel.size > 0) events.push({ kind: 'totals', byModel, totalUsd: num(event['total_cost_usd']) });
        const text = typeof event['result'] === 'string' ? event['result'] : '';
        events.push({ kind: 'result', text, isError: event['is_error'] === true || event['subtype'] !== 'success' });
        break;
      }
    }
    return events;
  }
}
