/**
 * Harness streams (issue: run real agents). Parsing a recorded 50 MB Claude Code stream
 * (stream-json lines) into output lines and usage, with the executor's own line splitter,
 * parser, key masking and usage tally, against only splitting it into lines and
 * JSON.parse-ing each (target >= 50 MB/s). The first-line latency figure (a harness's
 * stdout line to a streaming client's `output` event) is not measured here yet.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';

const here = dirname(fileURLToPath(import.meta.url));
const harnessDist = join(here, '..', 'packages', 'server', 'dist', 'executors', 'harness');
const load = async <T>(file: string) => (await import(pathToFileURL(join(harnessDist, file)).href)) as T;

const TARGET_BYTES = 50 * 1024 * 1024;
const CHUNK = 64 * 1024;

/** One agent turn as Claude Code prints it: text, a tool call, its result. */
function turn(i: number): string {
  const usage = { input_tokens: 1200 + i, output_tokens: 80, cache_read_input_tokens: 900, cache_creation_input_tokens: 40 };
  const session = '5ca1e34a-db53-4d38-88af-cfcebf7e2686';
  return [
    { type: 'assistant', message: { id: `msg_${i}`, model: 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'text', text: `Looking at step ${i} of the task, the parser needs a change.` }], usage }, session_id: session },
    { type: 'assistant', message: { id: `msg_${i}`, model: 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `npm test -- --grep case-${i}`, description: 'Run the tests' } }], usage }, session_id: session },
    { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `PASS src/parser.test.ts\n  ✓ case ${i} (3 ms)\n${'x'.repeat(600)}\nTests: 1 passed` }] }, session_id: session },
  ].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

function recording(): string {
  const parts: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < TARGET_BYTES; i++) {
    const t = turn(i);
    parts.push(t);
    bytes += t.length;
  }
  return parts.join('');
}

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export default async function harnessBench(): Promise<BenchRow[]> {
  const { LineSplitter } = await load<typeof import('../packages/server/src/executors/harness/line-splitter.js')>('line-splitter.js');
  const { ClaudeStreamParser } = await load<typeof import('../packages/server/src/executors/harness/claude-stream.js')>('claude-stream.js');
  const { UsageTally } = await load<typeof import('../packages/server/src/executors/harness/usage-tally.js')>('usage-tally.js');
  const { maskSecrets } = await load<typeof import('../packages/server/src/executors/harness/mask-secrets.js')>('mask-secrets.js');
  const text = recording();
  const mb = Buffer.byteLength(text) / (1024 * 1024);
  const secrets = ['sk-ant-bench-0123456789abcdef'];

  const parse = () => {
    const parser = new ClaudeStreamParser();
    const tally = new UsageTally();
    let outputBytes = 0;
    const splitter = new LineSplitter((raw) => {
      for (const event of parser.line(maskSecrets(raw, secrets))) {
        if (event.kind === 'output') outputBytes += event.text.length;
        else if (event.kind === 'message-usage') tally.message(event.messageId, event.model, event.tokens);
      }
    });
    for (let i = 0; i < text.length; i += CHUNK) splitter.push(text.slice(i, i + CHUNK));
    splitter.end();
    if (outputBytes === 0 || tally.empty) throw new Error('the parse produced nothing');
  };
  const baseline = () => {
    let rest = '';
    let n = 0;
    for (let i = 0; i < text.length; i += CHUNK) {
      const lines = (rest + text.slice(i, i + CHUNK)).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (JSON.parse(line)) n++;
    }
    if (n === 0) throw new Error('nothing parsed');
  };
  // One warm-up each, then the better of three, side by side.
  parse();
  baseline();
  const ours = Math.min(time(parse), time(parse), time(parse));
  const base = Math.min(time(baseline), time(baseline), time(baseline));
  const rate = mb / (ours / 1000);
  const baseRate = mb / (base / 1000);
  return [
    {
      suite: 'harness',
      measure: `parse a recorded ${mb.toFixed(0)} MB Claude Code stream into output lines and usage`,
      value: `${rate.toFixed(0)} MB/s`,
      baseline: `${baseRate.toFixed(0)} MB/s (split + JSON.parse only)`,
      ratio: `${(rate / baseRate).toFixed(2)}x`,
      target: '>= 50 MB/s',
      met: rate >= 50,
    },
  ];
}
