import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it, vi } from 'vitest';
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

/**
 * The worker's relay: takes the first `takes` requests, then is gone for good: its port closed,
 * or (`503`) a proxy in front of it that says to try again. What it was asked is in `asked`.
 */
async function goneRelay(gone: 'closed' | '503', onTestFinished: (fn: () => void) => void, takes = 1) {
  const asked: string[] = [];
  const relay: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      asked.push(`${req.method} ${req.url}`);
      if (asked.length > takes) return void res.writeHead(503).end('no worker behind this proxy\n');
      res.writeHead(204).end();
      if (gone === 'closed') {
        relay.close();
        relay.closeAllConnections();
      }
    });
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  onTestFinished(() => {
    relay.close();
    relay.closeAllConnections();
  });
  return { url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`, asked };
}

/** Bounded for a busy machine: an entrypoint that never gives up never exits, its agent never ending. */
function killedAfter(entrypoint: ReturnType<typeof startEntrypoint>, ms: number, onTestFinished: (fn: () => void) => void) {
  const killer = setTimeout(() => entrypoint.child.kill('SIGKILL'), ms);
  onTestFinished(() => {
    clearTimeout(killer);
    entrypoint.child.kill('SIGKILL');
  });
}

describe('agent-runs-job-entrypoint, when its worker stops answering', () => {
  // A 503 says to try again: it is no answer, and does not hold the window open. Its window is
  // longer than the back-off's longest pause (5 s), so that it is the answers that count.
  it.for([
    ['closed', 2],
    ['503', 8],
  ] as const)('gives up once the worker has not answered for AGENT_RUNS_JOB_RETRY_SECONDS (gone: %s, %i s): says so once, stops its agent and exits 1', { timeout: 40_000 }, async ([gone, seconds], { expect, onTestFinished }) => {
    const dir = tempTree({ 'agent.cjs': AGENT });
    const relay = await goneRelay(gone, onTestFinished);
    const entrypoint = startEntrypoint(relay.url, dir, { AGENT_RUNS_JOB_RETRY_SECONDS: String(seconds) });
    killedAfter(entrypoint, 30_000, onTestFinished);
    const [code, signal] = await entrypoint.exited;
    expect({ code, signal }, entrypoint.printed()).toEqual({ code: 1, signal: null });
    if (gone === 'closed') expect(relay.asked).toHaveLength(1);
    // Said once, though its output, its heartbeat and its end each had something to send.
    expect(entrypoint.printed().match(new RegExp(`the worker did not answer for ${seconds} s; giving up, its agent stopped\\.`, 'g'))).toHaveLength(1);
    const pid = Number(readFileSync(join(dir, 'agent.pid'), 'utf8'));
    expect(alive(pid)).toBe(false);
  });

  it('once told SIGTERM, waits 10 s for a worker that does not answer, not its retry window: stops its agent, says so once and exits 1', { timeout: 40_000 }, async ({ expect, onTestFinished }) => {
    const dir = tempTree({ 'agent.cjs': AGENT });
    const relay = await goneRelay('closed', onTestFinished);
    // The window of a pod (15 minutes): a restart the entrypoint would wait out, but not once it is told to stop.
    const entrypoint = startEntrypoint(relay.url, dir, {});
    killedAfter(entrypoint, 30_000, onTestFinished);
    // The agent runs, and the relay has taken its one request and is gone: the end, sent once the
    // agent stops, is unanswered (stopped sooner, the end could be that one request, taken).
    await vi.waitFor(() => expect(existsSync(join(dir, 'agent.pid')) && relay.asked.length).toBe(1), { timeout: 15_000, interval: 50 });
    const pid = Number(readFileSync(join(dir, 'agent.pid'), 'utf8'));
    entrypoint.child.kill('SIGTERM');
    const [code, signal] = await entrypoint.exited;
    expect({ code, signal }, entrypoint.printed()).toEqual({ code: 1, signal: null });
    expect(entrypoint.printed().match(/stopped \(SIGTERM\), and the worker did not answer within 10 s; giving up, its agent stopped\./g)).toHaveLength(1);
    expect(alive(pid)).toBe(false);
  });

  it('told SIGTERM while it fetches the patches of the run\'s workspace from a worker that answers 503, starts no agent and exits 1', { timeout: 40_000 }, async ({ expect, onTestFinished }) => {
    const dir = tempTree({ 'agent.cjs': AGENT });
    const relay = await goneRelay('503', onTestFinished, 0);
    const workspace = { repos: [], setup_commands: [], step_timeout_seconds: 60, restore: { ran_on: 'worker-a', here: 'worker-b', patches: 1 } };
    const entrypoint = startEntrypoint(relay.url, dir, { AGENT_RUNS_JOB_WORKSPACE: JSON.stringify(workspace) });
    killedAfter(entrypoint, 30_000, onTestFinished);
    // Asked for the patch again and again: it waits for the worker.
    await vi.waitFor(() => expect(relay.asked.filter((line) => line.endsWith('/patches/0')).length).toBeGreaterThanOrEqual(3), { timeout: 15_000, interval: 50 });
    entrypoint.child.kill('SIGTERM');
    const [code, signal] = await entrypoint.exited;
    expect({ code, signal }, entrypoint.printed()).toEqual({ code: 1, signal: null });
    expect(entrypoint.printed()).toContain('stopped (SIGTERM), and the worker did not answer within 10 s');
    expect(existsSync(join(dir, 'agent.pid'))).toBe(false);
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
