import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeAgentCommand } from '../support/node-agent.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const JUNK_LINES = 500_000;

// The reproduction: a report file of junk lines (1 MiB of "x\n") added one note per line,
// half a million notes that pushed the agent's own output out of the bound.
const agent = `
const fs = require('node:fs');
console.log('the agent said this');
fs.writeFileSync(process.env.AGENT_RUNS_REPORT_FILE, JSON.stringify({ type: 'RESULT', message: 'done' }) + '\\n' + 'x\\n'.repeat(${JUNK_LINES}));
`;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ executor: 'command', command: nodeAgentCommand(agent), outputLimitBytes: 256 * 1024 });
});
afterAll(() => t.close());

async function allOutput(runId: string): Promise<string> {
  let text = '';
  let since = 0;
  for (let page = 0; page < 1000; page++) {
    const res = await t.raw(`/api/v1/agent/runs/${runId}/output?since=${since}`);
    text += res.body.chunks.map((c: { text: string }) => c.text).join('');
    if (!res.body.has_more) return text;
    since = res.body.next_since;
  }
  throw new Error('the output did not end');
}

describe('a report file of junk lines', () => {
  it('adds at most 50 notes and one summary line, and the agent’s own output stays', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'junk report' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 50 });
    expect(run.state).toBe('SUCCEEDED');
    expect(run.status_message?.message).toBe('done');
    const output = await allOutput(run_id);
    expect(output).toContain('the agent said this\n');
    expect(output.match(/^\[agent-runs\] report line \d+ is not JSON; skipped\.$/gm)).toHaveLength(50);
    expect(output).toContain(`[agent-runs] ${JUNK_LINES - 50} more skipped report lines or artifacts were left unnoted (at most 50 notes of each per execution).\n`);
    expect(Buffer.byteLength(output)).toBeLessThan(16 * 1024);
  });
});
