/**
 * The agent sandbox's cost, each figure beside a bare spawn measured in the same run,
 * interleaved (issue 23):
 * - starting an agent (`/bin/true`, to its exit), median of 50: sandboxed ≤ bare + 50 ms,
 *   under `none` (the target) and under an allow-list (its proxy bridge starts first);
 * - 50 MB of agent output read through the pipes, median of 9: sandboxed within 10%;
 * - a whole run printing 50 MB, create to SUCCEEDED, through a server with the sandbox on
 *   against one with it off (both in this process), median of 3: within 10%.
 * The first two go through `spawnAgent`, as every agent does; "sandboxed" is what `--sandbox
 * auto` chooses on this machine (bubblewrap, and the agent user where this runs as root).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (path: string) => pathToFileURL(join(root, 'packages/server/dist/executors', path)).href;
const STARTS = 50;
const OUTPUT_BYTES = 50 * 1024 * 1024;
const OUTPUT_ROUNDS = 9;
const RUN_ROUNDS = 3;

type Spawn = typeof import('../packages/server/dist/executors/agent-spawn.js');
type Choose = typeof import('../packages/server/dist/executors/sandbox/choose-sandbox.js');
type Sandbox = import('../packages/server/dist/executors/sandbox/agent-sandbox.js').AgentSandbox;
type Server = typeof import('../packages/server/dist/index.js');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** CPU time (ms) of this process's reaped children so far: what starting agents costs, whatever else loads the machine. */
function childrenCpuMs(): number {
  const text = readFileSync('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime + cstime, in clock ticks (100 Hz)
}

export default async function sandboxBench(): Promise<BenchRow[]> {
  const { spawnAgent } = (await import(dist('agent-spawn.js'))) as Spawn;
  const { chooseSandbox } = (await import(dist('sandbox/choose-sandbox.js'))) as Choose;
  const sandbox = chooseSandbox({ mode: 'on', network: { kind: 'none' } });
  const bare: Sandbox = { ...sandbox, bwrap: undefined };
  const cwd = mkdtempSync(join(tmpdir(), 'agent-runs-bench-sandbox-'));
  if (sandbox.user) (await import('node:fs')).chownSync(cwd, sandbox.user.uid, sandbox.user.gid);

  /** ms from spawn to exit; the bytes read from stdout. */
  const run = (box: Sandbox, command: string, args: string[]) =>
    new Promise<{ ms: number; bytes: number }>((resolve, reject) => {
      const started = performance.now();
      const child = spawnAgent({ command, args, cwd, env: { PATH: '/usr/bin:/bin' }, sandbox: box });
      let bytes = 0;
      child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
      child.stdin.end();
      child.once('error', reject);
      child.once('close', () => resolve({ ms: performance.now() - started, bytes }));
    });

  const starts = { sandboxed: [] as number[], bare: [] as number[], allowList: [] as number[] };
  const cpu = { sandboxed: 0, bare: 0, allowList: 0 };
  // Under an allow-list: its filtering proxy (started once, here) and the bridge in each sandbox.
  const allowList: Sandbox = { ...sandbox, network: { kind: 'allow', hosts: ['registry.npmjs.org'] } };
  for (let i = 0; i < STARTS; i++) {
    for (const [name, box] of [['bare', bare], ['sandboxed', sandbox], ['allowList', allowList]] as const) {
      const before = childrenCpuMs();
      starts[name].push((await run(box, '/bin/true', [])).ms);
      cpu[name] += childrenCpuMs() - before;
    }
  }
  const output = { sandboxed: [] as number[], bare: [] as number[] };
  const produce = ['-c', `head -c ${OUTPUT_BYTES} /dev/zero`];
  for (let i = 0; i < OUTPUT_ROUNDS; i++) {
    // Each round in the other order, so neither side always follows the other's garbage.
    const pair = [['bare', bare], ['sandboxed', sandbox]] as const;
    for (const [name, box] of i % 2 ? [...pair].reverse() : pair) {
      const { ms, bytes } = await run(box, '/bin/sh', produce);
      if (bytes !== OUTPUT_BYTES) throw new Error(`${name}: read ${bytes} bytes of ${OUTPUT_BYTES}`);
      output[name].push(ms);
    }
  }
  rmSync(cwd, { recursive: true, force: true });
  const runs = await wholeRuns();

  const startSandboxed = median(starts.sandboxed);
  const startBare = median(starts.bare);
  const startAllow = median(starts.allowList);
  const mbps = (ms: number) => OUTPUT_BYTES / 1024 / 1024 / (ms / 1000);
  const outSandboxed = mbps(median(output.sandboxed));
  const outBare = mbps(median(output.bare));
  return [
    {
      suite: 'sandbox',
      measure: `agent start to exit, median of ${STARTS}`,
      value: `${startSandboxed.toFixed(1)} ms`,
      baseline: `${startBare.toFixed(1)} ms bare spawn`,
      ratio: `+${(startSandboxed - startBare).toFixed(1)} ms`,
      target: '<= +50 ms',
      met: startSandboxed - startBare <= 50,
    },
    {
      suite: 'sandbox',
      measure: `agent start to exit under an allow-list, median of ${STARTS}`,
      value: `${startAllow.toFixed(1)} ms`,
      baseline: `${startBare.toFixed(1)} ms bare spawn`,
      ratio: `+${(startAllow - startBare).toFixed(1)} ms`,
      target: '<= +50 ms',
      met: startAllow - startBare <= 50,
    },
    {
      suite: 'sandbox',
      measure: `agent start CPU time (children), mean of ${STARTS}`,
      value: `${(cpu.sandboxed / STARTS).toFixed(1)} ms`,
      baseline: `${(cpu.bare / STARTS).toFixed(1)} ms bare spawn`,
      ratio: `+${((cpu.sandboxed - cpu.bare) / STARTS).toFixed(1)} ms`,
      target: 'for reading the above under load',
    },
    {
      suite: 'sandbox',
      measure: `agent start CPU time under an allow-list, mean of ${STARTS}`,
      value: `${(cpu.allowList / STARTS).toFixed(1)} ms`,
      baseline: `${(cpu.bare / STARTS).toFixed(1)} ms bare spawn`,
      ratio: `+${((cpu.allowList - cpu.bare) / STARTS).toFixed(1)} ms`,
      target: 'for reading the above under load',
    },
    {
      suite: 'sandbox',
      measure: `50 MB of agent output, median of ${OUTPUT_ROUNDS}`,
      value: `${outSandboxed.toFixed(0)} MB/s`,
      baseline: `${outBare.toFixed(0)} MB/s bare`,
      ratio: `${(outSandboxed / outBare).toFixed(2)}x`,
      target: '>= 0.9x',
      met: outSandboxed / outBare >= 0.9,
    },
    {
      suite: 'sandbox',
      measure: `a run printing 50 MB, create to SUCCEEDED, median of ${RUN_ROUNDS}`,
      value: `${mbps(runs.sandboxed).toFixed(0)} MB/s sandbox on`,
      baseline: `${mbps(runs.bare).toFixed(0)} MB/s sandbox off`,
      ratio: `${(runs.bare / runs.sandboxed).toFixed(2)}x`,
      target: '>= 0.9x',
      met: runs.bare / runs.sandboxed >= 0.9,
    },
  ];
}

/** ms from create to SUCCEEDED of a command run printing 50 MB, median of each, servers with the sandbox on and off taking turns. */
async function wholeRuns(): Promise<{ sandboxed: number; bare: number }> {
  const { startServer } = (await import(pathToFileURL(join(root, 'packages/server/dist/index.js')).href)) as Server;
  const { AgentRunsClient } = await import('@agent-runs/core');
  const command = `yes 'agent output line, printed as fast as it goes' | head -c ${OUTPUT_BYTES}`;
  const start = async (sandbox: 'on' | 'off') => {
    const server = await startServer({ port: 0, storage: 'memory', quiet: true, executor: 'command', command, sandbox, network: 'none' });
    return { server, client: new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 }) };
  };
  const servers = { bare: await start('off'), sandboxed: await start('on') };
  const times = { bare: [] as number[], sandboxed: [] as number[] };
  try {
    for (let i = 0; i < RUN_ROUNDS; i++) {
      for (const name of i % 2 ? (['sandboxed', 'bare'] as const) : (['bare', 'sandboxed'] as const)) {
        const { client } = servers[name];
        const started = performance.now();
        const { run_id } = await client.runs.create({ prompt: 'print' });
        const run = await client.runs.wait(run_id, { pollInterval: 20 });
        if (run.state !== 'SUCCEEDED') throw new Error(`${name}: the run ended ${run.state}: ${run.status_message?.message ?? ''}`);
        times[name].push(performance.now() - started);
      }
    }
  } finally {
    for (const { server, client } of Object.values(servers)) {
      await client.close();
      await server.close();
    }
  }
  return { sandboxed: median(times.sandboxed), bare: median(times.bare) };
}
