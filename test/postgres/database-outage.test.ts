import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../packages/server/test/support/server-process.js';
import { nodeAgentCommand } from '../../packages/server/test/support/node-agent.js';
import { startReceiver, type WebhookReceiver } from '../../packages/server/test/webhooks/webhook-receiver.js';
import { postgresAdminUrl } from '../support/postgres.js';
import { startOwnCluster, type OwnCluster } from '../support/postgres-own-cluster.js';

const KEY = 'outage-test-key-0123456789';
const LINES = 40;
const work = mkdtempSync(join(tmpdir(), 'agent-runs-outage-'));
// The agent notes its progress outside its own directory, as the agent user where the test runs as root.
const notes = mkdtempSync(join(tmpdir(), 'agent-runs-outage-notes-'));
chmodSync(notes, 0o777);
const progress = join(notes, 'progress.txt');
// An agent printing a numbered line every 100 ms (4 s in all), noting how far it got.
const agent = `
  const fs = require('node:fs');
  let n = 0;
  const timer = setInterval(() => {
    n++;
    console.log('line ' + n);
    fs.writeFileSync(${JSON.stringify(progress)}, String(n));
    if (n === ${LINES}) clearInterval(timer);
  }, 100);`;
const auth = { authorization: `Bearer ${KEY}` };
const linesPrinted = () => (existsSync(progress) ? Number(readFileSync(progress, 'utf8') || 0) : 0);

// The suite's throwaway cluster is shared; this test stops one of its own.
describe.runIf(postgresAdminUrl !== undefined)('a PostgreSQL outage while an agent prints', () => {
  let cluster: OwnCluster;
  let server: ServerProcess;
  beforeAll(async () => {
    cluster = startOwnCluster();
    server = await startServerProcess(
      ['--database-url', cluster.url, '--api-key', KEY, '--executor', 'command', '--command', nodeAgentCommand(agent), '--work-dir', work, '--sandbox', 'off'],
      { ...process.env },
    );
  }, 120_000);
  afterAll(() => {
    server?.child.kill('SIGKILL');
    cluster?.remove();
  });

  // Reproduction: stop the database mid-run for a few seconds, ask the server things meanwhile, start it again.
  it('keeps the output until the database returns, answers 503 with Retry-After meanwhile, and logs the outage once', { timeout: 120_000 }, async () => {
    const created = await fetch(`${server.baseURL}/agent/runs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"prompt":"print"}' });
    const { run_id } = (await created.json()) as { run_id: string };
    await expect.poll(linesPrinted, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(3);
    const logBefore = server.stderr().length;

    cluster.stop();
    const stoppedAt = linesPrinted();
    const health = await fetch(`${server.baseURL.replace(/\/api\/v1$/, '')}/healthz`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { detail: string }).detail).toMatch(/database is unreachable/);
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.baseURL}/agent/runs/${run_id}`, { headers: auth });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    // The agent prints on while the database is away.
    await expect.poll(linesPrinted, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(Math.min(LINES, stoppedAt + 15));
    cluster.start();

    await expect
      .poll(async () => {
        const res = await fetch(`${server.baseURL}/agent/runs/${run_id}`, { headers: auth });
        return res.status === 200 ? ((await res.json()) as { state: string }).state : res.status;
      }, { timeout: 60_000, interval: 250 })
      .toBe('SUCCEEDED');
    // The output held meanwhile is written at the event log's next try (within 2 s of the return).
    const printed = async () => {
      const output = await fetch(`${server.baseURL}/agent/runs/${run_id}/output`, { headers: auth });
      return [...JSON.stringify(await output.json()).matchAll(/line (\d+)/g)].map((m) => Number(m[1]));
    };
    await expect.poll(printed, { timeout: 30_000, interval: 250 }).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));

    const log = server.stderr().slice(logBefore);
    expect(log).not.toMatch(/\n\s+at /);
    expect(log).not.toMatch(/Internal error/);
    expect(log.match(/database is unreachable/g)?.length ?? 0).toBeLessThanOrEqual(2);
    // A handful of lines for the whole outage (each part of the server says it once), none per request.
    expect(log.trim().split('\n').length, log).toBeLessThanOrEqual(10);
  });
});

// Restarts while runs and deliveries go on: a connection the server holds for a transaction
// breaks as often as an idle one, and the server must outlive both.
describe.runIf(postgresAdminUrl !== undefined)('PostgreSQL restarted eight times while runs and deliveries go on', () => {
  const RESTARTS = 8;
  let cluster: OwnCluster;
  let server: ServerProcess;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    cluster = startOwnCluster();
    cluster.durableCommits();
    receiver = await startReceiver();
    // Each run prints 20 lines over a second, so output, claims and deliveries are always under way.
    const printer = `let n = 0; const t = setInterval(() => { console.log('line ' + ++n); if (n === 20) clearInterval(t); }, 50);`;
    server = await startServerProcess(
      ['--database-url', cluster.url, '--api-key', KEY, '--command', nodeAgentCommand(printer), '--work-dir', mkdtempSync(join(tmpdir(), 'agent-runs-restarts-')),
        '--sandbox', 'off', '--concurrency', '4', '--allow-private-webhooks'],
      { ...process.env },
    );
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await receiver?.close();
    cluster?.remove();
  });

  it('stays up through fast and immediate stops, then finishes every run and delivers each one', { timeout: 300_000 }, async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.baseURL}${path}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const hook = await post('/agent/webhooks', { url: receiver.url, event_types: ['run.succeeded', 'run.failed'] });
    expect(hook.status).toBe(201);
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    void server.exited.then((e) => (exit = e));

    // Creates a run every 100 ms for as long as the restarts go on; those the server took are followed to their end.
    // At most UNFINISHED of them at a time (created, their end not yet delivered): enough that four run while
    // as many wait to be claimed, so output, claims and deliveries are always under way, without a backlog of
    // dozens left to drain once the restarts stop (creating at ten a second outruns four slots of a second each).
    const UNFINISHED = 12;
    const created: string[] = [];
    const unfinished = () => {
      const delivered = new Set(receiver.accepted.map((d) => d.event.data.run_id));
      return created.filter((id) => !delivered.has(id)).length;
    };
    let creating = true;
    const load = (async () => {
      while (creating && !exit) {
        if (unfinished() < UNFINISHED) {
          const res = await post('/agent/runs', { prompt: 'print' }).catch(() => undefined);
          if (res?.ok) created.push(((await res.json()) as { run_id: string }).run_id);
          else await res?.body?.cancel();
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await pause(2000);
    for (let i = 0; i < RESTARTS && !exit; i++) {
      cluster.stop(i % 2 === 0 ? 'fast' : 'immediate');
      await pause(1000);
      cluster.start();
      await pause(2500);
    }
    creating = false;
    await load;
    expect(exit, server.stderr().slice(-3000)).toBeUndefined();
    expect(server.stderr()).not.toMatch(/Unhandled 'error' event|\n\s+at /);
    expect(created.length).toBeGreaterThan(20);

    // Every run ends: it succeeds, or (claimed as the database went away) fails to be prepared and says so.
    const unended = async (id: string) => {
      const res = await fetch(`${server.baseURL}/agent/runs/${id}`, { headers: auth });
      if (res.status !== 200) return `${id}: ${res.status}`;
      const run = (await res.json()) as { state: string; status_message?: { message: string } };
      const ended = run.state === 'SUCCEEDED' || (run.state === 'ERROR' && /^The run could not be prepared: /.test(run.status_message?.message ?? ''));
      return ended ? undefined : `${id}: ${run.state} ${run.status_message?.message ?? ''}`;
    };
    await expect
      .poll(async () => (await Promise.all(created.map(unended))).filter(Boolean), { timeout: 120_000, interval: 500 })
      .toEqual([]);
    // And its end is delivered.
    await expect
      .poll(() => created.filter((id) => !receiver.accepted.some((d) => d.event.data.run_id === id)), { timeout: 120_000, interval: 500 })
      .toEqual([]);
    expect(exit).toBeUndefined();
  });
});
