import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/sqlite-driver.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { agentGroup, agentScript, killAgentGroups, livingMembers, withMarker } from '../support/agent-group.js';
import { rawRequest } from '../support/raw-http.js';

const KEY = 'fault-suite-key-1234';
const auth = { authorization: `Bearer ${KEY}` };
const procs: ServerProcess[] = [];
const markers: string[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  killAgentGroups();
  for (const pid of markers.splice(0).flatMap(withMarker)) process.kill(pid, 'SIGKILL');
});

async function serve(dataDir: string, workRoot: string, command: string) {
  const proc = await startServerProcess(['--data-dir', dataDir, '--api-key', KEY, '--executor', 'command', '--command', command, '--work-dir', workRoot, '--sandbox', 'off']); // The group is read from the server's side (no PID namespace).
  procs.push(proc);
  return proc;
}

function recordedGroup(dataDir: string, runId: string): number | undefined {
  const db = openDatabase(join(dataDir, 'runs.sqlite'));
  try {
    return (db.prepare('SELECT pgid FROM run_processes WHERE id = ?').get(runId) as { pgid: number } | undefined)?.pgid;
  } finally {
    db.close();
  }
}

/** A server whose agent runs, then is killed with SIGKILL: the agent's group outlives it. */
async function killedWithAgentRunning(script?: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-data-'));
  const workRoot = mkdtempSync(join(tmpdir(), 'agent-runs-work-'));
  const { command } = agentScript(script);
  const first = await serve(dataDir, workRoot, command);
  const res = await rawRequest(`${first.baseURL}/agent/run`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"prompt":"work"}' });
  const id = res.json.run_id as string;
  const pgid = await agentGroup(workRoot, id);
  // The group is recorded just after the agent starts; a kill before that leaves nothing to find.
  await expect.poll(() => recordedGroup(dataDir, id), { timeout: 10_000 }).toBe(pgid);
  first.child.kill('SIGKILL');
  await first.exited;
  expect(livingMembers(pgid).length).toBeGreaterThan(0); // Orphaned, as after any kill -9.
  return { dataDir, workRoot, command, id, pgid };
}

describe.runIf(process.platform === 'linux')('a server killed with kill -9', () => {
  it('leaves its agents to the next server, which kills their groups as it fails their runs', async () => {
    const left = await killedWithAgentRunning();
    const second = await serve(left.dataDir, left.workRoot, left.command);
    const run = (await rawRequest(`${second.baseURL}/agent/runs/${left.id}`, { headers: auth })).json;
    expect(run.state).toBe('FAILED');
    expect(run.status_message.message).toMatch(/restarted/);
    await expect.poll(() => livingMembers(left.pgid), { timeout: 5000 }).toEqual([]);
    expect(second.stderr()).toMatch(/Killed 1 agent process group/);
  });

  it("also kills what the agent started in a session of its own, orphaned before the kill (issue 45.13)", async () => {
    // The helper leaves the agent's group and session (setsid) and is orphaned when the shell
    // between them exits; the agent writes its group id (which the test waits for) only then.
    const marker = `agent-runs-kill9-setsid-${process.pid}`;
    markers.push(marker);
    const script = `read -r stat < /proc/$$/stat; set -- $stat
sh -c 'setsid sh -c "while :; do sleep 0.1; done" ${marker} </dev/null >/dev/null 2>&1 & sleep 1'
echo "$5" > pgid
while :; do sleep 0.1; done
`;
    const left = await killedWithAgentRunning(script);
    const helpers = withMarker(marker);
    expect(helpers.length).toBe(1); // Orphaned, outside the recorded group, alive after the kill -9.
    expect(livingMembers(left.pgid)).not.toContain(helpers[0]);
    const second = await serve(left.dataDir, left.workRoot, left.command);
    const run = (await rawRequest(`${second.baseURL}/agent/runs/${left.id}`, { headers: auth })).json;
    expect(run.state).toBe('FAILED');
    await expect.poll(() => withMarker(marker), { timeout: 5000 }).toEqual([]);
    await expect.poll(() => livingMembers(left.pgid), { timeout: 5000 }).toEqual([]);
    expect(second.stderr()).toMatch(/Killed 1 agent process group/);
  });

  it('does not kill a process that only reuses the recorded pid (its start time differs)', async () => {
    const left = await killedWithAgentRunning();
    // As if the pid had been reused: the recorded start time is not the leader's.
    const db = openDatabase(join(left.dataDir, 'runs.sqlite'));
    db.prepare('UPDATE run_processes SET start_time = ? WHERE id = ?').run('1', left.id);
    db.close();
    const second = await serve(left.dataDir, left.workRoot, left.command);
    const run = (await rawRequest(`${second.baseURL}/agent/runs/${left.id}`, { headers: auth })).json;
    expect(run.state).toBe('FAILED');
    expect(livingMembers(left.pgid).length).toBeGreaterThan(0);
    expect(second.stderr()).not.toMatch(/Killed \d+ agent process group/);
  });
});
