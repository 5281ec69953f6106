import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { ConversationMessage } from '@agent-runs/core/contract';
import { protocolDir } from '../agent-protocol.js';
import { readAgentFile } from '../agent-tree.js';
import type { TurnPart } from './harness-event.js';

/** Largest record of an execution's turns kept; later parts are dropped (the transcript keeps the stream). */
export const MAX_TURNS_BYTES = 4 * 1024 * 1024;
/** Longest text of one part kept in the conversation. */
const MAX_PART_CHARS = 16 * 1024;

/** The agent's turn of one execution, part by part, beside its raw stream. */
export function harnessTurnsPath(workRoot: string, runId: string, execution: number): string {
  return join(protocolDir(workRoot, runId), 'executions', String(execution), 'harness-turns.jsonl');
}

interface TurnRecord {
  part: TurnPart;
  text: string;
  at: string;
}

/** Appends each part of the turn, as it streams, to a server file opened fresh (createServerFile); bounded, written in the background. */
export class TurnsWriter {
  private bytes = 0;
  private readonly stream: WriteStream;

  constructor(fd: number) {
    this.stream = createWriteStream('', { fd });
    // A full disk loses the conversation's detail, never the run.
    this.stream.on('error', () => {});
  }

  add(part: TurnPart, text: string): void {
    const record: TurnRecord = { part, text: text.length > MAX_PART_CHARS ? `${text.slice(0, MAX_PART_CHARS)}…\n` : text, at: new Date().toISOString() };
    const line = `${JSON.stringify(record)}\n`;
    this.bytes += Buffer.byteLength(line);
    if (this.bytes > MAX_TURNS_BYTES || this.stream.writableEnded) return;
    this.stream.write(line);
  }

  /** Writes what is left and closes the file; resolves once it is closed (or failed). */
  end(): Promise<void> {
    return new Promise((resolve) => {
      this.stream.once('close', () => resolve());
      this.stream.end();
    });
  }
}

function records(text: string): TurnRecord[] {
  const out: TurnRecord[] = [];
  for (const line of text.split('\n')) {
    try {
      const r = JSON.parse(line) as Partial<TurnRecord>;
      if ((r.part === 'text' || r.part === 'action' || r.part === 'result') && typeof r.text === 'string' && typeof r.at === 'string') out.push(r as TurnRecord);
    } catch {
      // The last line of a record cut at its bound, or an empty one.
    }
  }
  return out;
}

/**
 * What the agent said and did in one execution as the contract's messages: its text as
 * assistant text, each tool call an `action` block (its readable line as input), what it
 * gave back an `action_result` in a `tool` message. Empty for an execution of no harness.
 */
export function harnessTurnMessages(workRoot: string, runId: string, execution: number): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  let action: { id: string; name: string } | undefined;
  let n = 0;
  for (const record of records(readAgentFile(workRoot, harnessTurnsPath(workRoot, runId, execution), MAX_TURNS_BYTES).text)) {
    const id = `${runId}:${execution}:turn:${n++}`;
    const text = record.text.replace(/\n+$/, '');
    const last = messages.at(-1);
    if (record.part === 'text') {
      const block = last?.role === 'assistant' ? last.content.at(-1) : undefined;
      // Text streamed line by line is one message.
      if (block?.type === 'text' && typeof block['text'] === 'string') block['text'] = `${block['text']}\n${text}`;
      else messages.push({ message_ids: [id], role: 'assistant', timestamp: record.at, content: [{ type: 'text', message_id: id, text }] });
      action = undefined;
    } else if (record.part === 'action') {
      const first = text.split(/\s/, 1)[0] || 'tool';
      action = { id, name: first === '$' ? 'shell' : first };
      messages.push({ message_ids: [id], role: 'assistant', timestamp: record.at, content: [{ type: 'action', message_id: id, id, category: 'tool', name: action.name, input: { line: text } }] });
    } else if (action) {
      const output = text.replace(/^ {2}/gm, '');
      messages.push({ message_ids: [id], role: 'tool', timestamp: record.at, content: [{ type: 'action_result', message_id: id, action_id: action.id, category: 'tool', name: action.name, state: 'done', output: { text: output } }] });
      action = undefined;
    }
  }
  return messages;
}
