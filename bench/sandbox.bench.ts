/**
 * The agent sandbox's cost, each figure beside a bare spawn measured in the same run,
 * interleaved (issue 23):
 * - starting an agent (`/bin/true`, to its exit), median of 50: sandboxed ≤ bare + 50 ms;
 * - 50 MB of agent output read through the pipes, median of 5: sandboxed within 10%.
 * Both go through `spawnAgent`, as every agent does; "sandboxed" is what `--sandbox auto`
 * chooses on this machine (bubblewrap, and the agent user where this runs as root).
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
const OUTPUT_ROUNDS = 5;

type Spawn = typeof import('../packages/server/dist/executors/agent-spawn.js');
type Choose = typeof import('../packages/server/dist/executors/sandbox/choose-sandbox.js');
type Sandbox = import('../packages/server/dist/executors/sandbox/agent-sandbox.js').AgentSandbox;

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

  const starts = { sandboxed: [] as number[], bare: [] as number[] };
  const cpu = { sandboxed: 0, bare: 0 };
  for (let i = 0; i < STARTS; i++) {
    for (const [name, box] of [['bare', bare], ['sandboxed', sandbox]] as const) {
      const before = childrenCpuMs();
      starts[name].push((await run(box, '/bin/true', [])).ms);
      cpu[name] += childrenCpuMs() - before;
    }
  }
  const output = { sandboxed: [] as number[], bare: [] as number[] };
  const produce = ['-c', `head -c ${OUTPUT_BYTES} /dev/zero`];
  for (let i = 0; i < OUTPUT_ROUNDS; i++) {
    for (const [name, box] of [['bare', bare], ['sandboxed', sandbox]] as const) {
      const { ms, bytes } = await run(box, '/bin/sh', produce);
      if (bytes !== OUTPUT_BYTES) throw new Error(`${name}: read ${bytes} bytes of ${OUTPUT_BYTES}`);
      output[name].push(ms);
    }
  }
  rmSync(cwd, { recursive: true, force: true });

  const startSandboxed = median(starts.sandboxed);
  const startBare = median(starts.bare);
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
      measure: `agent start CPU time (children), mean of ${STARTS}`,
      value: `${(cpu.sandboxed / STARTS).toFixed(1)} ms`,
      baseline: `${(cpu.bare / STARTS).toFixed(1)} ms bare spawn`,
      ratio: `+${((cpu.sandboxed - cpu.bare) / STARTS).toFixed(1)} ms`,
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
  ];
}
