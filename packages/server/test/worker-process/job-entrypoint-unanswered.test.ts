import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { tempTree } from '../support/server-config.js';
import { JOB_ENTRYPOINT } from '../support/worker-process.js';

// An agent that works on, printing a line every 100 ms, and keeps its pid where the test finds it.
const AGENT = `require('fs').writeFileSync(process.argv[2], String(process.pid));
setInterval(() => console.log('tick'), 100);
`;

/** The entrypoint of run-1 against `url`, its agent the one above; its exit, and what it printed. */
function startEntrypoint(url: string, dir: string, extra: Record<string, string>) {
  const child = spawn(process.execPath, [JOB_ENTRYPOINT], {
    env: {
      PATH: process.env['PATH'],
      AGENT_RUNS_JOB_URL: url,
      AGENT_RUNS_JOB_TOKEN: 'a-run-token',
      AGENT_RUNS_JOB_COMMAND: `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(dir, 'agent.cjs'))} ${JSON.stringify(join(dir, 'agent.pid'))}`,
      AGENT_RUNS_RUN_ID: 'run-1',
      AGENT_RUNS_JOB_MASKED: '[]',
      AGENT_RUNS_JOB_WORK_ROOT: dir,
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  return { child, printed: () => printed, exited: once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]> };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('agent-runs-job-entrypoint, when its worker stops answering', () => {
  it('gives up once the worker has not answered for AGENT_RUNS_JOB_RETRY_SECONDS: says so once, stops its agent and exits 1', { timeout: 40_000 }, async ({ expect, onTestFinished }) => {
    const dir = tempTree({ 'agent.cjs': AGENT });
    let answered = 0;
    // The worker's relay: takes the first output, then is gone for good (its port closed).
    const relay: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        answered++;
        res.writeHead(204).end();
        relay.close();
        relay.closeAllConnections();
      });
    });
    relay.listen(0, '127.0.0.1');
    await once(relay, 'listening');
    onTestFinished(() => void relay.close());
    const entrypoint = startEntrypoint(`http://127.0.0.1:${(relay.address() as AddressInfo).port}`, dir, { AGENT_RUNS_JOB_RETRY_SECONDS: '2' });
    // Bounded for a busy machine: an entrypoint that never gives up never exits, its agent never ending.
    const killer = setTimeout(() => entrypoint.child.kill('SIGKILL'), 30_000);
    onTestFinished(() => {
      clearTimeout(killer);
      entrypoint.child.kill('SIGKILL');
    });
    const [code, signal] = await entrypoint.exited;
    expect({ code, signal }, entrypoint.printed()).toEqual({ code: 1, signal: null });
    expect(answered).toBe(1);
    // Said once, though its output, its heartbeat and its end each had something to send.
    expect(entrypoint.printed().match(/the worker did not answer for 2 s; giving up, its agent stopped\./g)).toHaveLength(1);
    const pid = Number(readFileSync(join(dir, 'agent.pid'), 'utf8'));
    expect(alive(pid)).toBe(false);
  });

  it.for(['0', '90000', '1.5', '15m', ' 5'])('refuses AGENT_RUNS_JOB_RETRY_SECONDS=%j before starting anything, naming it', { timeout: 20_000 }, async (value, { expect }) => {
    const dir = tempTree({ 'agent.cjs': AGENT });
    const entrypoint = startEntrypoint('http://127.0.0.1:9', dir, { AGENT_RUNS_JOB_RETRY_SECONDS: value });
    const [code] = await entrypoint.exited;
    expect(code).toBe(2);
    expect(entrypoint.printed()).toContain(`AGENT_RUNS_JOB_RETRY_SECONDS must be a whole number of seconds from 1 to 86400, got ${JSON.stringify(value)}`);
    expect(entrypoint.printed()).not.toMatch(/\n\s+at /);
    expect(() => readFileSync(join(dir, 'agent.pid'))).toThrow();
  });
});
