/**
 * The core client's overhead: sequential `runs.get` against bare `undici.request` on the
 * same loopback server, and the heap taken by iterating 100,000 runs across pages.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Agent, request } from 'undici';
import { AgentRunsClient } from '@agent-runs/core';
import type { BenchRow } from './bench-row.js';

const GETS = 5_000;
const ROUNDS = 20;
const ITERATED = 100_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function startStub(total: number) {
  const child = spawn(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), 'runs-api-stub.mjs'), String(total)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  return { origin: `http://127.0.0.1:${chunk.toString().trim()}`, stop: () => child.kill() };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function timeLoop(count: number, fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export default async function coreBench(): Promise<BenchRow[]> {
  const stub = await startStub(ITERATED);
  const baseURL = `${stub.origin}/api/v1`;
  const client = new AgentRunsClient({ baseURL, apiKey: 'bench-key', env: {} });
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const bare = async () => {
    const res = await request(`${baseURL}/agent/runs/r-1`, {
      dispatcher: agent,
      headers: { authorization: 'Bearer bench-key', accept: 'application/json' },
    });
    return res.body.json();
  };
  const viaClient = () => client.runs.get('r-1');

  // Warm both paths (JIT, connections), then alternate short rounds so that drift and
  // the host's noise hit both alike; medians of the rounds keep one slow round out.
  await timeLoop(500, bare);
  await timeLoop(500, viaClient);
  const bareRounds: number[] = [];
  const clientRounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareRounds.push(await timeLoop(GETS / ROUNDS, bare));
    clientRounds.push(await timeLoop(GETS / ROUNDS, viaClient));
  }
  const bareMs = sum(bareRounds);
  const clientMs = sum(clientRounds);
  const ratio = median(clientRounds) / median(bareRounds);

  gc();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  let seen = 0;
  for await (const run of client.runs.list({ limit: 500 })) {
    if (run.run_id) seen++;
    if (seen % 5_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  gc();
  const after = process.memoryUsage().heapUsed;
  const growthMB = (peak - before) / 1024 / 1024;
  const retainedMB = (after - before) / 1024 / 1024;

  await client.close();
  await agent.close();
  stub.stop();
  if (seen !== ITERATED) throw new Error(`iterated ${seen} runs, expected ${ITERATED}`);

  return [
    {
      suite: 'core',
      measure: `${GETS} sequential runs.get`,
      value: `${clientMs.toFixed(0)} ms (${((clientMs * 1000) / GETS).toFixed(0)} µs/get)`,
      baseline: `${bareMs.toFixed(0)} ms bare undici.request`,
      // The ratio of the median rounds (of 250 gets each); the totals are shown for scale.
      ratio: `${ratio.toFixed(2)}x`,
      target: '<= 0.9x',
      met: ratio <= 0.9,
    },
    {
      suite: 'core',
      measure: `iterate ${ITERATED.toLocaleString('en')} runs (pages of 500)`,
      value: `peak heap +${growthMB.toFixed(1)} MB, retained +${retainedMB.toFixed(1)} MB`,
      baseline: 'heap before iterating',
      target: '< 50 MB',
      met: growthMB < 50,
    },
  ];
}
