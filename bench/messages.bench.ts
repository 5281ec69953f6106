/**
 * The run-to-run mailbox's latency on one in-memory server in this process, with the command
 * agent running: a message sent to a running agent until its line is in the agent's inbox file
 * (target p99 ≤ 50 ms), and until a poll of the event feed with `since` holds its event (target:
 * at once, the first poll after the send), each beside the same server answering a
 * `GET /agent/runs/{id}` of the recipient in the same run: the unavoidable round trip.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';
import { BENCH_KEY as KEY, fmt, percentile } from './server-load.js';
import { nodeAgentCommand } from '../packages/server/test/support/node-agent.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200);

/** Prints where its inbox is, then waits to be cancelled. */
const AGENT = nodeAgentCommand(`console.log('inbox=' + process.env.AGENT_RUNS_INBOX_FILE); setInterval(() => {}, 1000);`);

type Server = typeof import('../packages/server/src/index.js');
type Core = typeof import('../packages/core/src/index.js');

export default async function messagesBench(): Promise<BenchRow[]> {
  const { startServer } = (await import(pathToFileURL(join(root, 'packages/server/dist/index.js')).href)) as Server;
  const { AgentRunsClient } = (await import(pathToFileURL(join(root, 'packages/core/dist/index.js')).href)) as Core;
  const dir = mkdtempSync(join(tmpdir(), 'bench-messages-'));
  const server = await startServer({ storage: 'memory', apiKeys: [{ key: KEY, principal: 'bench' }], quiet: true, executor: 'command', command: AGENT, workDir: dir });
  const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
  try {
    const sender = (await client.runs.create({ prompt: 'sender' })).run_id;
    const recipient = (await client.runs.create({ prompt: 'recipient' })).run_id;
    let inbox: string | undefined;
    for (let i = 0; i < 200 && !inbox; i++) {
      inbox = /inbox=(\S+)/.exec((await client.runs.output(recipient)).text)?.[1];
      if (!inbox) await sleep(50);
    }
    if (!inbox) throw new Error('the recipient agent never said where its inbox is');
    const lines = () => {
      try {
        return readFileSync(inbox!, 'utf8').split('\n').length - 1;
      } catch {
        return 0;
      }
    };
    const toInbox: number[] = [];
    const toPoll: number[] = [];
    const pollsNeeded: number[] = [];
    const get: number[] = [];
    let since = 0;
    for (let i = 0; i < MESSAGES; i++) {
      const before = lines();
      const sent = performance.now();
      const send = client.messages.send({ to: [recipient], subject: `m${i}`, body: 'x'.repeat(200), sender_run_id: sender });
      // Watched as the agent would: the file, read in a tight loop until the line is there.
      while (lines() === before) await new Promise((resolve) => setImmediate(resolve));
      toInbox.push(performance.now() - sent);
      await send;
      let polls = 0;
      for (;;) {
        polls++;
        const events = await client.events.list({ run_ids: [recipient], since });
        if (events.length > 0) {
          since = events.at(-1)!.sequence;
          break;
        }
      }
      toPoll.push(performance.now() - sent);
      pollsNeeded.push(polls);
      const t0 = performance.now();
      await client.runs.get(recipient);
      get.push(performance.now() - t0);
    }
    await client.runs.cancel(recipient).catch(() => {});
    await client.runs.cancel(sender).catch(() => {});
    const p99Inbox = percentile(toInbox, 99);
    return [
      {
        suite: 'server',
        measure: `message to a running agent's inbox file, p99 (${MESSAGES})`,
        value: `${fmt(p99Inbox, 1)} ms`,
        baseline: `${fmt(percentile(get, 99), 1)} ms (GET of the run)`,
        ratio: `${fmt(p99Inbox / percentile(get, 99), 2)}x`,
        target: '<= 50 ms',
        met: p99Inbox <= 50,
      },
      {
        suite: 'server',
        measure: `message to an events poll with since, p99 (${MESSAGES})`,
        value: `${fmt(percentile(toPoll, 99), 1)} ms, ${Math.max(...pollsNeeded)} poll(s) at most`,
        baseline: `${fmt(percentile(get, 99), 1)} ms (GET of the run)`,
        ratio: `${fmt(percentile(toPoll, 99) / percentile(get, 99), 2)}x`,
        target: 'the first poll after the send',
        met: Math.max(...pollsNeeded) === 1,
      },
    ];
  } finally {
    await client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
