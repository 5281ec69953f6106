import type { HarnessEvent, HarnessStreamParser } from './harness-event.js';
import { jsonLine, num, obj, type Json } from './json-line.js';
import { toolCallLine, toolResultLines } from './tool-call-line.js';
import type { TokenCount } from './usage-tally.js';

/** Longest partial line of agent text held before it is shown anyway. */
const MAX_PENDING_CHARS = 64 * 1024;

/**
 * One model's tokens from the result's `stats.models`: `input_tokens` counts the cached part
 * (`cached`) too, and `output_tokens` leaves out the thinking tokens, which Gemini bills as
 * output; they are what `total_tokens` holds beyond the two.
 */
export function geminiTokens(stats: Json): TokenCount {
  const prompt = num(stats['input_tokens']);
  const cached = num(stats['cached']);
  const candidates = num(stats['output_tokens']);
  const thoughts = Math.max(0, num(stats['total_tokens']) - prompt - candidates);
  return { input: Math.max(0, prompt - cached), input_cache_read: cached, input_cache_write: 0, output: candidates + thoughts };
}

/** An API error as the CLI quotes it (`[API Error: {"error":{…}}]`), as its own message and status. */
export function geminiErrorMessage(raw: string): string {
  const start = raw.indexOf('{');
  const end = raw.lastIndexOf('}');
  if (start === -1 || end <= start) return raw;
  try {
    const error = obj(obj(JSON.parse(raw.slice(start, end + 1)))['error']);
    const message = error['message'];
    if (typeof message !== 'string' || !message) return raw;
    const status = [error['code'], error['status']].filter((v) => v !== undefined && v !== '').join(' ');
    return status ? `${message} (${status})` : message;
  } catch {
    return raw;
  }
}

/**
 * Gemini CLI's `--output-format stream-json` lines: `init` (the session), `message` (the
 * agent's text in deltas, joined here into whole lines), `tool_use` and `tool_result`,
 * `error` (warnings) and the final `result` (status, error, tokens per model; no cost and
 * no answer: the answer is the agent's text after its last tool call).
 */
export class GeminiStreamParser implements HarnessStreamParser {
  private pending = '';
  private answer = '';

  line(line: string): HarnessEvent[] {
    const event = jsonLine(line);
    if (Array.isArray(event)) return event;
    const events: HarnessEvent[] = [];
    switch (event['type']) {
      case 'init':
        if (typeof event['session_id'] === 'string' && event['session_id']) events.push({ kind: 'session', id: event['session_id'] });
        break;
      case 'message':
        if (event['role'] === 'assistant' && typeof event['content'] === 'string') this.text(event['content'], events);
        break;
      case 'tool_use':
        this.flush(events);
        this.answer = '';
        events.push({ kind: 'output', text: `${toolCallLine(String(event['tool_name'] ?? 'tool'), obj(event['parameters']))}\n`, part: 'action' });
        break;
      case 'tool_result': {
        this.flush(events);
        const error = obj(event['error']);
        const shown = event['status'] === 'error' ? `error: ${typeof error['message'] === 'string' ? error['message'] : 'the tool failed'}` : typeof event['output'] === 'string' ? event['output'] : '';
        const text = toolResultLines(shown);
        if (text) events.push({ kind: 'output', text, part: 'result' });
        break;
      }
      case 'error':
        this.flush(events);
        if (typeof event['message'] === 'string' && event['message'].trim()) events.push({ kind: 'output', text: `${event['severity'] === 'warning' ? 'warning' : 'error'}: ${event['message'].trim()}\n` });
        break;
      case 'result': {
        this.flush(events);
        const byModel = new Map<string, { tokens: TokenCount; webSearches: number }>();
        for (const [model, stats] of Object.entries(obj(obj(event['stats'])['models']))) {
          const tokens = geminiTokens(obj(stats));
          if (tokens.input + tokens.input_cache_read + tokens.output > 0) byModel.set(model, { tokens, webSearches: 0 });
        }
        if (byModel.size > 0) events.push({ kind: 'totals', byModel });
        const failed = event['status'] !== 'success';
        const message = obj(event['error'])['message'];
        const text = failed ? geminiErrorMessage(typeof message === 'string' ? message : '') : this.answer.trim();
        events.push({ kind: 'result', text, isError: failed });
        break;
      }
    }
    return events;
  }

  /** Agent text as it streams: each completed line shown at once, the rest held for the next delta. */
  private text(delta: string, events: HarnessEvent[]): void {
    this.answer += delta;
    this.pending += delta;
    const cut = this.pending.lastIndexOf('\n');
    if (cut !== -1) {
      const lines = this.pending.slice(0, cut);
      this.pending = this.pending.slice(cut + 1);
      if (lines.trim()) events.push({ kind: 'output', text: `${lines.replace(/^\n+/, '')}\n`, part: 'text' });
    } else if (this.pending.length > MAX_PENDING_CHARS) {
      this.flush(events);
    }
  }

  private flush(events: HarnessEvent[]): void {
    if (this.pending.trim()) events.push({ kind: 'output', text: `${this.pending}\n`, part: 'text' });
    this.pending = '';
  }
}
