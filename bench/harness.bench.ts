/**
 * Harness streams (issue: run real agents). Parsing a recorded 50 MB stream of each harness
 * CLI into output lines and usage, with the executor's own line splitter, that harness's
 * parser, key masking and usage tally, against only splitting it into lines and
 * JSON.parse-ing each, side by side (target >= 50 MB/s). The latency from a harness's stdout
 * line to a streaming client is in harness-latency.bench.ts.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';
import type { HarnessStreamParser } from '../packages/server/src/executors/harness/harness-event.js';
import { claudeRecording, codexRecording, geminiRecording } from './harness-recordings.js';

const here = dirname(fileURLToPath(import.meta.url));
const harnessDist = join(here, '..', 'packages', 'server', 'dist', 'executors', 'harness');
const load = async <T>(file: string) => (await import(pathToFileURL(join(harnessDist, file)).href)) as T;

const CHUNK = 64 * 1024;
const SECRETS = ['sk-bench-0123456789abcdef'];

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export default async function harnessBench(): Promise<BenchRow[]> {
  const { LineSplitter } = await load<typeof import('../packages/server/src/executors/harness/line-splitter.js')>('line-splitter.js');
  const { UsageTally } = await load<typeof import('../packages/server/src/executors/harness/usage-tally.js')>('usage-tally.js');
  const { SecretMask } = await load<typeof import('../packages/server/src/domain/secret-mask.js')>('../../domain/secret-mask.js');
  const mask = new SecretMask(SECRETS);
  const { ClaudeStreamParser } = await load<typeof import('../packages/server/src/executors/harness/claude-stream.js')>('claude-stream.js');
  const { CodexStreamParser } = await load<typeof import('../packages/server/src/executors/harness/codex-stream.js')>('codex-stream.js');
  const { GeminiStreamParser } = await load<typeof import('../packages/server/src/executors/harness/gemini-stream.js')>('gemini-stream.js');

  const harnesses: { name: string; text: string; parser: () => HarnessStreamParser }[] = [
    { name: 'Claude Code', text: claudeRecording(), parser: () => new ClaudeStreamParser() },
    { name: 'Codex CLI', text: codexRecording(), parser: () => new CodexStreamParser('gpt-5.5', '/work') },
    { name: 'Gemini CLI', text: geminiRecording(), parser: () => new GeminiStreamParser() },
  ];
  return harnesses.map(({ name, text, parser }) => {
    const mb = Buffer.byteLength(text) / (1024 * 1024);
    const parse = () => {
      const stream = parser();
      const tally = new UsageTally();
      let outputBytes = 0;
      const splitter = new LineSplitter((raw) => {
        for (const event of stream.line(mask.mask(raw))) {
          if (event.kind === 'output') outputBytes += event.text.length;
          else if (event.kind === 'message-usage') tally.message(event.messageId, event.model, event.tokens);
          else if (event.kind === 'totals') tally.totals(event.byModel, event.totalUsd);
        }
      });
      for (let i = 0; i < text.length; i += CHUNK) splitter.push(text.slice(i, i + CHUNK));
      splitter.end();
      if (outputBytes === 0 || tally.empty) throw new Error(`the ${name} parse produced nothing`);
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
    return {
      suite: 'harness',
      measure: `parse a recorded ${mb.toFixed(0)} MB ${name} stream into output lines and usage`,
      value: `${rate.toFixed(0)} MB/s`,
      baseline: `${baseRate.toFixed(0)} MB/s (split + JSON.parse only)`,
      ratio: `${(rate / baseRate).toFixed(2)}x`,
      target: '>= 50 MB/s',
      met: rate >= 50,
    };
  });
}
