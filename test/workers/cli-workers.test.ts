import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../packages/cli/test/support/cli-process.js';
import { HOSTILE_VERSION, startWorkerServer } from './worker-server.js';

let t: Awaited<ReturnType<typeof startWorkerServer>>;
beforeAll(async () => {
  t = await startWorkerServer();
});
afterAll(() => t?.close());

const cli = (...args: string[]) => runCli(args, { env: t.env });

describe('agent-runs workers', () => {
  it('says when no worker is connected, and how to connect one to this server', async () => {
    const result = await cli('workers');
    expect(result.code).toBe(0);
    // The hint names the command as it was invoked (here its built file), and this server's root URL.
    const [line, hint, ...rest] = result.stdout.split('\n');
    expect(line).toBe('No self-hosted worker is connected.');
    expect(hint).toMatch(/^Start one with: .*agent-runs(\.js)? worker --server (\S+) --worker-host <id>$/);
    expect(/--server (\S+)/.exec(hint!)![1]).toBe(t.server.url);
    expect(rest).toEqual(['']);
  });

  it('prints an empty list as JSON with --json', async () => {
    expect(JSON.parse((await cli('workers', '--json')).stdout)).toEqual({ workers: [] });
  });

  it('lists a worker connected over the worker protocol, its announced text shown, never sent to the terminal', async () => {
    expect((await t.connectWorker({ version: HOSTILE_VERSION })).status).toBe(200);
    const result = await cli('workers');
    expect(result.code).toBe(0);
    const [head, row, ...rest] = result.stdout.split('\n');
    expect(head).toMatch(/^WORKER HOST\s+INSTANCE\s+RUNNING\s+LAST HEARTBEAT\s+DRAINING\s+VERSION$/);
    expect(row).toMatch(/^gpu\s+gpu-box-1\s+0\/4\s+\S+ ago\s+no\s+<img src=x onerror=alert\(1\)>\\e\]0;pwned\\x07$/);
    expect(rest).toEqual(['']);
    expect(result.stdout).not.toMatch(/[\u001b\u0007]/);
  });

  it('prints that worker as JSON with --json, its version as announced', async () => {
    const json = JSON.parse((await cli('workers', '--json')).stdout) as { workers: Record<string, unknown>[] };
    expect(json.workers).toEqual([
      expect.objectContaining({ worker_host: 'gpu', instance_id: 'gpu-box-1', version: HOSTILE_VERSION, capacity: 4, running_runs: 0, draining: false }),
    ]);
  });

  it('takes no arguments', async () => {
    const result = await cli('workers', 'gpu');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/"workers" takes no arguments, got "gpu"/);
  });
});

describe('agent-runs run --worker-host', () => {
  it('creates a run whose agent_config.worker_host names the worker', async () => {
    const result = await cli('run', 'Train the model', '--worker-host', 'gpu');
    expect(result.code).toBe(0);
    const runId = result.stdout.trim();
    expect((await t.client.runs.get(runId)).agent_config?.worker_host).toBe('gpu');
    await t.client.runs.cancel(runId);
  });

  it('shows the server’s refusal of an id it has no worker token for, naming the field', async () => {
    const result = await cli('run', 'Train the model', '--worker-host', 'nowhere');
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/worker_host/);
    expect(result.stderr).toMatch(/nowhere/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('is in the help of run, and workers in the command list', async () => {
    const [runHelp, help] = await Promise.all([cli('run', '--help'), cli('--help')]);
    expect(runHelp.stdout).toMatch(/--worker-host <id>\s+Run on a self-hosted worker connected under this id \(see the workers command\)/);
    expect(help.stdout).toMatch(/^\s+workers\s+List the self-hosted workers connected to the server$/m);
  });
});
