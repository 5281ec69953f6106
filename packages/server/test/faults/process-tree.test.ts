import { afterEach, describe, expect, it } from 'vitest';
import { withMarker } from '../support/agent-group.js';
import { tempTree } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

/**
 * Reproduction (issue 20, item 16): the agent starts a child in a session of its own
 * (`setsid`), which leaves the agent's process group, then exits. The group kill missed it
 * and it ran on after its run ended. The child carries a marker in its command line so the
 * test finds it among the machine's processes.
 */
const agent = (marker: string) => `setsid sh -c 'while :; do sleep 0.1; done' ${marker} </dev/null >/dev/null 2>&1 &
sleep 0.6
echo started`;

let t: TestServer | undefined;
const markers: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const pid of markers.splice(0).flatMap(withMarker)) process.kill(pid, 'SIGKILL');
});

describe.runIf(process.platform === 'linux')('a child that calls setsid (issue 20.16)', () => {
  for (const sandbox of ['on', 'off'] as const) {
    it(`does not outlive its run (sandbox ${sandbox}: ${sandbox === 'on' ? 'its PID namespace ends with it' : 'the tree is tracked in /proc'})`, async () => {
      const marker = `agent-runs-orphan-${sandbox}-${process.pid}`;
      markers.push(marker);
      t = await startTestServer({ executor: 'command', command: agent(marker), workDir: tempTree({}, 'agent-runs-tree-'), sandbox });
      const { run_id } = await t.client.runs.create({ prompt: 'start a helper and leave' });
      await expect.poll(() => withMarker(marker).length, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
      expect((await t.client.runs.wait(run_id, { pollInterval: 20 })).state).toBe('SUCCEEDED');
      await expect.poll(() => withMarker(marker), { timeout: 5000, interval: 100 }).toEqual([]);
    });
  }
});
