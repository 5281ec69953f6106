/**
 * Harness output latency (issue: run real agents): from a harness CLI writing a line on its
 * stdout to a streaming client (`client.runs.events`) seeing it as an `output` event, p50 and
 * p99 over 200 lines, side by side with reading the same CLI's stdout directly (target p99
 * <= 20 ms). The CLI is a stand-in that prints Claude Code's stream-json, each text carrying
 * the wall-clock time it was written; the server drives it as the claude harness, in the
 * agent sandbox where the machine has one, as a user's server does.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LINES = 200;
const GAP_MS = 10;

/** Prints LINES assistant texts `tick <i> <ms since the epoch, fractional>` GAP_MS apart, then a result. */
const FAKE_CLI = `#!${process.execPath}
const now = () => performance.timeOrigin + performance.now();
const out = (event) => process.stdout.write(JSON.stringify(event) + '\\n');
process.stdin.resume();
process.stdin.on('end', () => {});
out({ type: 'system', subtype: 'init', session_id: 'bench-session' });
let i = 0;
const timer = setInterval(() => {
  if (i === ${LINES}) {
    clearInterval(timer);
    out({ type: 'result', subtype: 'success', is_error: false, result: 'done', session_id: 'bench-session', total_cost_usd: 0, modelUsage: {} });
    process.exit(0);
  }
  out({ type: 'assistant', session_id: 'bench-session', message: { id: 'msg_' + i, model: 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'text', text: 'tick ' + i + ' ' + now() }], usage: { input_tokens: 1, output_tokens: 1 } } });
  i++;
}, ${GAP_MS});
`;

const TICK = /tick (\d+) ([\d.]+)/g;
const now = () => performance.timeOrigin + performance.now();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Latencies of every tick found in `text`, seen now. */
function ticks(text: string, into: Map<number, number>): void {
  const seen = now();
  for (const match of text.matchAll(TICK)) into.set(Number(match[1]), seen - Number(match[2]));
}

async function direct(cli: string): Promise<number[]> {
  const child = spawn(cli, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end('go\n');
  const found = new Map<number, number>();
  for await (const line of createInterface({ input: child.stdout })) ticks(line, found);
  return [...found.values()];
}

async function throughServer(cli: string, dir: string): Promise<number[]> {
  const { startServer } = (await import(pathToFileURL(join(root, 'packages/server/dist/index.js')).href)) as typeof import('../packages/server/src/index.js');
  const { AgentRunsClient } = (await import(pathToFileURL(join(root, 'packages/core/dist/index.js')).href)) as typeof import('../packages/core/src/index.js');
  const configFile = join(dir, 'server.yaml');
  writeFileSync(configFile, `harnesses:\n  claude:\n    command: ${cli}\n    env: [ANTHROPIC_API_KEY]\n`);
  process.env.ANTHROPIC_API_KEY = 'sk-bench-0123456789';
  const server = await startServer({ port: 0, quiet: true, storage: 'memory', configFile, workDir: join(dir, 'work') });
  const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey });
  try {
    const { run_id } = await client.runs.create({ prompt: 'tick', config: { harness: { type: 'claude' } } });
    const found = new Map<number, number>();
    for await (const event of client.runs.events(run_id)) {
      if (event.type === 'output') ticks(event.data.text, found);
    }
    return [...found.values()];
  } finally {
    await client.close?.();
    await server.close();
  }
}

export default async function harnessLatencyBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-latency-bench-'));
  // The agent user of a root server reads the stand-in CLI from here.
  chmodSync(dir, 0o755);
  const cli = join(dir, 'claude');
  writeFileSync(cli, FAKE_CLI);
  chmodSync(cli, 0o755);
  try {
    const base = await direct(cli);
    const ours = await throughServer(cli, dir);
    if (ours.length < LINES * 0.99 || base.length < LINES) throw new Error(`lines missing: ${ours.length} through the server, ${base.length} direct`);
    const row = (p: number): BenchRow => {
      const value = percentile(ours, p);
      const baseline = percentile(base, p);
      return {
        suite: 'harness',
        measure: `p${p} harness stdout line to a streaming client's output event (${LINES} lines)`,
        value: `${value.toFixed(2)} ms`,
        baseline: `${baseline.toFixed(2)} ms (reading the CLI's stdout directly)`,
        ratio: `+${(value - baseline).toFixed(2)} ms`,
        target: p === 99 ? '<= 20 ms' : '',
        ...(p === 99 ? { met: value <= 20 } : {}),
      };
    };
    return [row(50), row(99)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
