import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@agent-runs/server';
import { startCommandAgentServer } from '../../../../test/support/command-agent.js';
import { binEnv, connectStdio, textOf, type StdioSession } from '../support/mcp-harness.js';

// Reproduction: an agent printing 8 MB on one line, then a short last line. get_run_output with
// lines: 1 used to answer with that line twice (16 MB), which the official client dropped.
const AGENT = "head -c 8000000 /dev/zero | tr '\\000' x; echo; echo 'the end é'";
const MAX_OUTPUT_BYTES = 64 * 1024;

let api: RunningServer;
let mcp: StdioSession;
beforeAll(async () => {
  api = await startCommandAgentServer(AGENT, { concurrency: 2 });
  mcp = await connectStdio(binEnv(api));
});
afterAll(async () => {
  await mcp?.close();
  await api?.close();
});

describe('get_run_output bounds its result in bytes', () => {
  it('keeps 8 MB of output on one line to the last 64 KiB, and says what it left out', async () => {
    const created = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Print a lot' } });
    const run_id = (created.structuredContent as { run_id: string }).run_id;
    await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id } }, undefined, { timeout: 60_000 });

    const last = await mcp.client.callTool({ name: 'get_run_output', arguments: { run_id, lines: 1 } });
    expect(last.structuredContent).toMatchObject({ run_id, text: 'the end é', lines: 1 });

    const two = await mcp.client.callTool({ name: 'get_run_output', arguments: { run_id, lines: 2 } });
    const output = two.structuredContent as { text: string; lines: number; omitted_bytes?: number };
    expect(Buffer.byteLength(output.text)).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    expect(output.text.slice(-20)).toBe('xxxxxxxxxx\nthe end é');
    expect(output.omitted_bytes).toBeGreaterThan(0);
    expect(textOf(two)).toContain('bytes of the rest were cut');
    // Both copies of the text together: the whole result stays near twice the bound, never megabytes.
    expect(JSON.stringify(two).length).toBeLessThan(2 * MAX_OUTPUT_BYTES + 4096);
  });
});
