/**
 * Gemini CLI's stream (issue: run real agents). Parsing a recorded 50 MB `stream-json`
 * stream (text in deltas, tool calls, results) into output lines and usage, with the
 * executor's own line splitter, the Gemini parser, key masking and usage tally, against only
 * splitting it into lines and JSON.parse-ing each (target >= 50 MB/s).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';

const here = dirname(fileURLToPath(import.meta.url));
const harnessDist = join(here, '..', 'packages', 'server', 'dist', 'executors', 'harness');
const load = async <T>(file: string) => (await import(pathToFileURL(join(harnessDist, file)).href)) as T;

const TARGET_BYTES = 50 * 1024 * 1024;
const CHUNK = 64 * 1024;
const at = '2026-11-24T08:44:20.915Z';

/** One agent turn as Gemini CLI prints it: text in three deltas, a shell call, its output. */
function turn(i: number): string {
  const id = `run_shell_command__run_shell_command_${1795509860922 + i}_0`;
  return [
    { type: 'message', timestamp: at, role: 'assistant', content: `Looking at step ${i} of the task, `, delta: true },
    { type: 'message', timestamp: at, role: 'assistant', content: 'the parser needs ', delta: true },
    { type: 'message', timestamp: at, role: 'assistant', content: 'a change.\n', delta: true },
    { type: 'tool_use', timestamp: at, tool_name: 'run_shell_command', tool_id: id, parameters: { command: `npm test -- --grep case-${i}`, description: 'Run the tests' } },
    { type: 'tool_result', timestamp: at, tool_id: id, status: 'success', output: `PASS src/parser.test.ts\n  ✓ case ${i} (3 ms)\n${'x'.repeat(600)}\nTests: 1 passed` },
  ].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

const RESULT = `${JSON.stringify({ type: 'result', timestamp: at, status: 'success', stats: { total_tokens: 1250, input_tokens: 1000, output_tokens: 200, cached: 100, input: 900, duration_ms: 1, tool_calls: 1, models: { 'gemini-2.5-pro': { total_tokens: 1250, input_tokens: 1000, output_tokens: 200, cached: 100, input: 900 } } } })}\n`;

function recording(): string {
  const parts: string[] = [`${JSON.stringify({ type: 'init', timestamp: at, session_id: 'fd3565a7-b3d1-474f-bd09-0b05c807a425', model: 'gemini-2.5-pro' })}\n`];
  let bytes = 0;
  for (let i = 0; bytes < TARGET_BYTES; i++) {
    const t = turn(i);
    parts.push(t);
    bytes += t.length;
  }
  parts.push(RESULT);
  return parts.join('');
}

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export default async function geminiStreamBench(): Promise<BenchRow[]> {
  const { LineSplitter } = await load<typeof import('../packages/server/src/executors/harness/line-splitter.js')>('line-splitter.js');
  const { GeminiStreamParser } = await load<typeof import('../packages/server/src/executors/harness/gemini-stream.js')>('gemini-stream.js');
  const { UsageTally } = await load<typeof import('../packages/server/src/executors/harness/usage-tally.js')>('usage-tally.js');
  const { maskSecrets } = await load<typeof import('../packages/server/src/executors/harness/mask-secrets.js')>('mask-secrets.js');
  const text = recording();
  const mb = Buffer.byteLength(text) / (1024 * 1024);
  const secrets = ['AIzaSy-bench-0123456789abcdef'];

  const parse = () => {
    const parser = new GeminiStreamParser();
    const tally = new UsageTally();
    let outputBytes = 0;
    const splitter = new LineSplitter((raw) => {
      for (const event of parser.line(maskSecrets(raw, secrets))) {
        if (event.kind === 'output') outputBytes += event.text.length;
        else if (event.kind === 'totals') tally.totals(event.byModel, event.totalUsd);
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
      measure: `parse a recorded ${mb.toFixed(0)} MB Gemini CLI stream into output lines and usage`,
      value: `${rate.toFixed(0)} MB/s`,
      baseline: `${baseRate.toFixed(0)} MB/s (split + JSON.parse only)`,
      ratio: `${(rate / baseRate).toFixed(2)}x`,
      target: '>= 50 MB/s',
      met: rate >= 50,
    },
  ];
}
