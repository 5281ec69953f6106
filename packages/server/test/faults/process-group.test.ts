import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { agentGroup, agentScript, killAgentGroups, livingMembers } from '../support/agent-group.js';
import { rawRequest } from '../support/raw-http.js';

const KEY = 'fault-suite-key-1234';
const GRACE_MS = 2000;
let proc: ServerProcess | undefined;
afterEach(() => {
  if (proc && proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
  proc = undefined;
  killAgentGroups();
});

async function serve(extra: string[]) {
  const { command } = agentScript();
  const workRoot = mkdtempSync(join(tmpdir(), 'agent-runs-work-'));
  proc = await startServerProcess(['--memory', '--api-key', KEY, '--executor', 'command', '--command', command, '--work-dir', workRoot, '--sandbox', 'off', ...extra]); // The group is read from the server's side (no PID namespace).
  const auth = { authorization: `Bearer ${KEY}` };
  const api = proc.baseURL;
  const create = async () => {
    const res = await rawRequest(`${api}/agent/run`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"prompt":"work"}' });
    expect(res.status).toBe(200);
    return res.json.run_id as string;
  };
  const get = async (id: string) => (await rawRequest(`${api}/agent/runs/${id}`, { headers: auth })).json;
  return { workRoot, api, auth, create, get, proc };
}

describe.runIf(process.platform === 'linux')('ending an agent whose shell exits on SIGTERM while its child holds on', () => {
  it('times the run out: the group is killed after the grace period and the run FAILS', async () => {
    const s = await serve(['--command-timeout', '1s']);
    const id = await s.create();
    const pgid = await agentGroup(s.workRoot, id);
    await expect.poll(async () => (await s.get(id)).state, { timeout: 1000 + GRACE_MS + 1000 + 8000, interval: 100 }).toBe('FAILED');
    const run = await s.get(id);
    expect(run.status_message.message).toMatch(/ran longer than 1s/);
    // The run ended within timeout + grace + 1 s of starting (plus slack for a busy machine).
    expect(Date.parse(run.updated_at) - Date.parse(run.started_at)).toBeLessThan(1000 + GRACE_MS + 1000 + 3000);
    await expect.poll(() => livingMembers(pgid), { timeout: 5000 }).toEqual([]);
  });

  it('answers a cancel at once, then kills the whole group', async () => {
    const s = await serve([]);
    const id = await s.create();
    const pgid = await agentGroup(s.workRoot, id);
    const answer = await rawRequest(`${s.api}/agent/runs/${id}/cancel`, { method: 'POST', headers: s.auth });
    expect(answer.status).toBe(200);
    // The child ignores SIGTERM: only SIGKILL, a grace period later, ends it. Still being
    // there now shows the cancel did not wait for the grace period.
    expect(livingMembers(pgid).length).toBeGreaterThan(0);
    expect((await s.get(id)).state).toBe('CANCELLED');
    await expect.poll(() => livingMembers(pgid), { timeout: GRACE_MS + 1000 + 4000 }).toEqual([]);
  });

  it('shuts down on SIGTERM within grace + 2 s, leaving no process of the group', async () => {
    const s = await serve([]);
    const id = await s.create();
    const pgid = await agentGroup(s.workRoot, id);
    const since = Date.now();
    s.proc.child.kill('SIGTERM');
    const exit = await Promise.race([s.proc.exited, new Promise((r) => setTimeout(() => r('still running'), 15_000))]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - since).toBeLessThan(GRACE_MS + 2000 + 3000);
    expect(livingMembers(pgid)).toEqual([]);
  });
});
