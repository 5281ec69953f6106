import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { tempTree } from '../support/server-config.js';
import { JOB_ENTRYPOINT } from '../support/worker-process.js';

// An agent that prints a line, then, told to stop, prints one more before it exits: what it
// prints after the worker said the run is over reaches an entrypoint that sends nothing more.
const AGENT = `process.on('SIGTERM', () => { console.log('stopping'); setTimeout(() => process.exit(0), 100); });
console.log('one');
setInterval(() => {}, 1000);
`;

describe('agent-runs-job-entrypoint, once the worker says its run is over', () => {
  it('stops its agent, sends nothing after, and exits: a line the agent prints as it stops does not leave it spinning', { timeout: 40_000 }, async ({ expect, onTestFinished }) => {
    const dir = tempTree({ 'agent.cjs': AGENT });
    const requests: { path: string; body: string }[] = [];
    // The worker's relay, for a run it no longer runs: 410 to everything.
    const relay = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        requests.push({ path: req.url ?? '', body: Buffer.concat(parts).toString('utf8') });
        res.writeHead(410, { 'content-type': 'text/plain' }).end('this run is not running here\n');
      });
    });
    relay.listen(0, '127.0.0.1');
    await once(relay, 'listening');
    onTestFinished(() => void relay.close());
    const child = spawn(process.execPath, [JOB_ENTRYPOINT], {
      env: {
        PATH: process.env['PATH'],
        AGENT_RUNS_JOB_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
        AGENT_RUNS_JOB_TOKEN: 'a-run-token',
        AGENT_RUNS_JOB_COMMAND: `${JSON.stringify(process.execPath)} ${JSON.stringify(join(dir, 'agent.cjs'))}; echo after`,
        AGENT_RUNS_RUN_ID: 'run-1',
        AGENT_RUNS_JOB_MASKED: '[]',
        AGENT_RUNS_JOB_WORK_ROOT: dir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    // Bounded for a busy machine; an entrypoint left spinning on its own send never exits at all.
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    onTestFinished(() => {
      clearTimeout(killer);
      child.kill('SIGKILL');
    });
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }, printed).toEqual({ code: 1, signal: null });
    // The agent was told to stop, and what it printed then went to the pod's log only.
    expect(printed).toContain('stopping');
    // What it sent went out before the worker's first 410, at most one of each kind in flight at
    // once (its output, its follow-ups' fetch, its heartbeat; whichever was answered first stopped
    // the agent, on a busy machine before its line was sent): none was sent again after.
    const paths = requests.map((r) => r.path.split('?')[0]!);
    expect(paths.length, JSON.stringify(paths)).toBeGreaterThanOrEqual(1);
    expect(new Set(paths).size, JSON.stringify(paths)).toBe(paths.length);
    for (const path of paths) expect(['/runs/run-1/output', '/runs/run-1/followups', '/runs/run-1/alive']).toContain(path);
    for (const output of requests.filter((r) => r.path === '/runs/run-1/output')) expect(output.body).toContain('one');
    expect(requests.map((r) => r.body).join('\n')).not.toContain('stopping');
  });
});
