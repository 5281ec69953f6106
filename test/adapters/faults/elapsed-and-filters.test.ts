import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../packages/cli/test/support/cli-process.js';
import { startTestServer } from '../../../packages/cli/test/support/local-server.js';
import { binEnv, connectStdio, textOf } from '../../../packages/mcp/test/support/mcp-harness.js';

let local: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  local = await startTestServer();
});
afterAll(async () => {
  await local?.close();
});

const cli = (args: string[]) => runCli([...local.target, ...args], { env: local.env });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds in `formatElapsed` text (`850ms`, `2s`, `1m05s`). */
function seconds(text: string): number {
  const match = /^(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(text)!;
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0) + Number(match[3] ?? 0) / 1000;
}

describe('how long a run has been going', () => {
  it('wait shows the time since the run started, not since the wait began', async () => {
    // Long enough to outlast the wait on a busy machine, whose first answer may take a while.
    const { run_id } = await local.client.runs.create({ prompt: 'Slow [simulate 60s]' });
    // The wait below begins more than 2 s into the run.
    await sleep(2_500);
    const result = await cli(['wait', run_id, '--timeout', '2s', '--poll-interval', '100ms']);
    const first = /^run \S+: INPROGRESS \((\S+)\)$/m.exec(result.stderr);
    expect(first, result.stderr).not.toBeNull();
    expect(seconds(first![1]!)).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('the MCP timed-out summary gives the run its real duration, not 0ms', async () => {
    const { run_id } = await local.client.runs.create({ prompt: 'Slower [simulate 60s]' });
    await sleep(2_500);
    const mcp = await connectStdio(binEnv(undefined, { AGENT_RUNS_BASE_URL: local.server.baseURL, AGENT_RUNS_API_KEY: local.env.AGENT_RUNS_API_KEY }));
    try {
      const result = await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id, timeout: '3s' } });
      expect((result.structuredContent as { timed_out: boolean }).timed_out).toBe(true);
      const duration = /Duration\s+(\S+)/.exec(textOf(result));
      expect(duration, textOf(result)).not.toBeNull();
      expect(seconds(duration![1]!)).toBeGreaterThanOrEqual(2);
    } finally {
      await mcp.close();
    }
  }, 30_000);
});

describe('an empty filter is a mistake, not "every run"', () => {
  it("list --state '' is a usage error naming the flag", async () => {
    const result = await cli(['list', '--state', '']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: --state must name a run state \(QUEUED, .*\), got ""\.$/m);
  });

  it("list --search '' is a usage error naming the flag", async () => {
    const result = await cli(['list', '--search', '']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --search needs a non-empty value.');
  });
});

describe('a time filter out of range', () => {
  it('list --created-after 99999999999d is a usage error naming the flag, not "unexpected"', async () => {
    const result = await cli(['list', '--created-after', '99999999999d']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --created-after goes back further than any time, got "99999999999d".');
    expect(result.stderr).not.toContain('unexpected');
  });
});
