import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, type RunStreamEvent } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';
import { writeAgentScript } from '../support/command-agent.js';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../support/postgres.js';

const KEY = 'cluster-test-key-0123456789';

if (!postgresAdminUrl) console.warn('\n*** PostgreSQL is not available (AGENT_RUNS_TEST_DATABASE_URL unset): the tests across servers are SKIPPED. ***\n');

/**
 * Two servers on one database, the run executed by the first: what a client of the second
 * does (stream, cancel, follow up, open the session page) reaches it.
 */
describe.runIf(postgresAdminUrl)('a run executed by one server, reached through another', () => {
  let db: TestDatabase;
  let agent: { dir: string; command: string };
  /** Each agent writes its shell's pid here, as <run id>.pid. */
  const pids = mkdtempSync(join(tmpdir(), 'agent-runs-pids-'));
  chmodSync(pids, 0o777); // Written by the agent user of a root server.
  const agentAlive = (runId: string) => {
    try {
      process.kill(Number(readFileSync(join(pids, `${runId}.pid`), 'utf8')), 0);
      return true;
    } catch {
      return false;
    }
  };
  const started: RunningServer[] = [];
  const clients: AgentRunsClient[] = [];

  const serve = async () => {
    const server = await startServer({ port: 0, quiet: true, databaseUrl: db.url, apiKeys: [{ key: KEY, principal: 'team' }], command: agent.command, concurrency: 4, leaseMs: 2000, sandbox: 'off' }); // The agents' pids are read from outside: no PID namespace.
    started.push(server);
    const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
    clients.push(client);
    return { server, client };
  };

  /** The first server takes the run (it is alone when the run is created); then a second one starts. */
  const onFirstThroughSecond = async (prompt: string) => {
    const first = await serve();
    const { run_id: runId } = await first.client.runs.create({ prompt });
    await expect.poll(async () => (await first.client.runs.get(runId)).state, { timeout: 10_000 }).toBe('INPROGRESS');
    const second = await serve();
    return { runId, first, second };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    // The prompt says what to do: print ticks, wait to be stopped, or wait for a follow-up.
    agent = writeAgentScript(`echo $$ > '${pids}'/"$AGENT_RUNS_RUN_ID.pid"
case "$(cat)" in
  ticks) for i in 1 2 3 4 5 6 7 8 9 10; do echo "tick $i"; sleep 0.2; done ;;
  wait) sleep 60 ;;
  inbox) echo ready; i=0; while [ ! -s "$AGENT_RUNS_INBOX_FILE" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    echo "heard: $(cat "$AGENT_RUNS_INBOX_FILE")"
    # Says it took the follow-up, so no further execution answers it.
    id=$(sed -n 's/.*"id":"\\([^"]*\\)".*/\\1/p' "$AGENT_RUNS_INBOX_FILE" | head -n 1)
    echo "{\\"type\\":\\"FOLLOWUP_TAKEN\\",\\"id\\":\\"$id\\"}" >> "$AGENT_RUNS_REPORT_FILE" ;;
esac
`);
  }, 30_000);

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(started.splice(0).map((s) => s.close()));
  }, 30_000);

  afterAll(async () => {
    await db?.drop();
  });

  it('streams the output and the end of a run live to a client of another server', async () => {
    const { runId, second } = await onFirstThroughSecond('ticks');
    const events: RunStreamEvent[] = [];
    for await (const event of second.client.runs.events(runId)) events.push(event);
    const output = events.flatMap((e) => (e.type === 'output' ? [e.data.text] : [])).join('');
    expect(output).toBe(Array.from({ length: 10 }, (_, i) => `tick ${i + 1}\n`).join(''));
    const last = events.at(-1)!;
    expect(last.type === 'run' && last.data.state).toBe('SUCCEEDED');
  });

  it('stops the agent on the executing server when the run is cancelled through another', async () => {
    const { runId, first, second } = await onFirstThroughSecond('wait');
    await expect.poll(() => agentAlive(runId), { timeout: 10_000 }).toBe(true);
    await second.client.runs.cancel(runId);
    expect((await first.client.runs.get(runId)).state).toBe('CANCELLED');
    await expect.poll(() => agentAlive(runId), { timeout: 15_000 }).toBe(false);
  });

  it('hands a follow-up sent through another server to the running agent', async () => {
    const { runId, second } = await onFirstThroughSecond('inbox');
    // Sent once the agent runs: one sent before it starts is in its follow-up file, not its inbox.
    await expect.poll(async () => (await second.client.runs.output(runId)).text, { timeout: 10_000 }).toContain('ready');
    await second.client.runs.followup(runId, { message: 'over here' });
    const run = await second.client.runs.wait(runId, { timeout: 20_000 });
    expect(run.state).toBe('SUCCEEDED');
    expect((await second.client.runs.output(runId)).text).toMatch(/heard: .*over here/);
    // Taken by the execution that was running: no second one.
    expect((await second.client.runs.conversation(runId)).steps).toHaveLength(1);
  });

  it('hands a message sent through another server to the running agent, marked delivered', async () => {
    const { runId, second } = await onFirstThroughSecond('inbox');
    await expect.poll(async () => (await second.client.runs.output(runId)).text, { timeout: 10_000 }).toContain('ready');
    const { message_ids } = await second.client.messages.send({ to: [runId], subject: 'note', body: 'over there', sender_run_id: runId });
    const run = await second.client.runs.wait(runId, { timeout: 20_000 });
    expect(run.state).toBe('SUCCEEDED');
    expect((await second.client.runs.output(runId)).text).toMatch(/heard: .*"kind":"agent_message".*over there/);
    const [header] = await second.client.messages.list(runId);
    expect(header).toMatchObject({ message_id: message_ids[0], delivered_at: expect.any(String) });
  });

  it('polls events reported through two servers at once by sequence, missing none and repeating none', async () => {
    const { runId, first, second } = await onFirstThroughSecond('ticks');
    const seen: number[] = [];
    let since = 0;
    const poll = async () => {
      for (const event of await first.client.events.list({ run_ids: [runId], since, limit: 500 })) {
        seen.push(event.sequence);
        since = event.sequence;
      }
    };
    let reporting = true;
    const polling = (async () => {
      while (reporting) await poll();
    })();
    const reported = await Promise.all(
      Array.from({ length: 120 }, (_, i) => (i % 2 ? first : second).client.events.report(runId, { event_type: 'run_in_progress', ref_id: String(i) })),
    );
    reporting = false;
    await polling;
    await poll();
    expect(seen).toEqual(reported.map((r) => r.sequence).sort((x, y) => x - y));
  });

  it('opens a session link made by one server on another (the servers share the link keys)', async () => {
    const { runId, first, second } = await onFirstThroughSecond('ticks');
    const link = new URL((await first.client.runs.get(runId)).session_link!);
    const res = await fetch(`${second.server.url}${link.pathname}${link.search}`);
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });
});
